import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { Dialog, DialogTrigger, Form, Heading, Modal } from 'react-aria-components';
import { api, ApiError, type Schemas, unwrap } from '../../api/client';
import { Button, Field, SelectField } from '../../ui/forms';
import { count, JOB_TYPE_KEYS, JOB_TYPES, type JobType, MARKETPLACES } from './kinds';
import { CreateJobAlert, jobFormProblems } from './problems';

type Body = Schemas['CreateJobBody'];
type Sort = '' | 'recent' | 'helpful';

interface FormState {
  type: JobType;
  marketplace: string;
  targets: string;
  pages: string;
  sort: Sort;
}

const INITIAL: FormState = { type: 'details', marketplace: 'US', targets: '', pages: '1', sort: '' };

/** The body the form stands for, and the textarea line of each target sent (blank lines are left out). */
function bodyOf(form: FormState): { body: Body; lines: number[] } {
  const lines: number[] = [];
  const targets: string[] = [];
  form.targets.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    lines.push(i + 1);
    targets.push(line.trim());
  });
  const config: NonNullable<Body['config']> = { marketplace: form.marketplace };
  if (JOB_TYPES[form.type].pages && form.pages) config.pages = Number(form.pages);
  if (form.type === 'reviews' && form.sort) config.sort = form.sort;
  return { body: { type: form.type, targets, config }, lines };
}

/** A value that follows `value` once it stopped changing for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** What the job would cost now, from the API's own estimate (same validation and prices as a create). */
function CostEstimate({ projectId, body, lineOf }: { projectId: string; body: Body; lineOf: (index: number) => number }) {
  const key = JSON.stringify(body);
  const settled = useDebounced(key, 400);
  const estimate = useQuery({
    queryKey: ['job-estimate', projectId, settled],
    queryFn: async () =>
      (
        await unwrap(
          api.POST('/v1/key/projects/{projectId}/jobs/estimate', { params: { path: { projectId } }, body: JSON.parse(settled) as Body }),
        )
      ).data,
    enabled: body.targets.length > 0,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 10_000,
  });
  const stale = settled !== key || estimate.isFetching;
  let text: ReactNode;
  if (!body.targets.length) text = 'Enter at least one target to see what the job costs.';
  else if (estimate.error) {
    const first = jobFormProblems(estimate.error, lineOf).all[0];
    text =
      estimate.error instanceof ApiError && estimate.error.code === 'VALIDATION_ERROR'
        ? `No estimate until the form is valid${first ? `: ${first.text}` : '.'}`
        : `No estimate: ${estimate.error.message}`;
  } else if (estimate.data) {
    const e = estimate.data;
    text = (
      <>
        <span className="estimate-cost">
          {count(e.targets)} {e.targets === 1 ? 'target' : 'targets'} × {count(e.creditsPerTarget)} credits
          {e.pages ? ` (${e.pages} ${e.pages === 1 ? 'page' : 'pages'} each)` : ''} = <strong>{count(e.cost)} credits</strong>
        </span>
        <span>
          Balance: {count(e.balance)} credits.{' '}
          {e.accepted ? (
            <span className="badge ok">Can run now</span>
          ) : (
            <span className="badge bad">{e.refusal?.message ?? 'Would be refused'}</span>
          )}
        </span>
      </>
    );
  } else text = 'Estimating the cost…';
  return (
    <div className="estimate" role="status" aria-busy={stale || undefined}>
      <span className="estimate-label">Cost estimate{stale && body.targets.length ? ' (updating…)' : ''}</span>
      {text}
    </div>
  );
}

/** `New job`: a dialog with the job's type, marketplace, targets and options, its cost, and `Create job`. */
export function NewJobDialog({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [form, setForm] = useState<FormState>(INITIAL);
  const { body, lines } = useMemo(() => bodyOf(form), [form]);
  const lineOf = (index: number) => lines[index] ?? index + 1;

  const create = useMutation({
    mutationFn: (sent: Body) => unwrap(api.POST('/v1/key/projects/{projectId}/jobs', { params: { path: { projectId } }, body: sent })),
    onSuccess: ({ data }) => {
      void queryClient.invalidateQueries({ queryKey: ['jobs', projectId] });
      queryClient.setQueryData(['job', data.id], data);
      void navigate({ to: '/console/jobs/$jobId', params: { jobId: data.id } });
    },
  });
  const set =
    <K extends keyof FormState>(key: K) =>
    (value: FormState[K]) => {
      setForm((f) => ({ ...f, [key]: value }));
      // the API's answer was about the form as it was: an edit makes it stale
      if (create.error) create.reset();
    };
  const fields = jobFormProblems(create.error, lineOf).byField;
  const kind = JOB_TYPES[form.type];

  return (
    <DialogTrigger onOpenChange={(open) => !open && (create.reset(), setForm(INITIAL))}>
      <Button>New job</Button>
      <Modal className="modal" isDismissable>
        <Dialog className="dialog new-job">
          {({ close }) => (
            <Form
              onSubmit={(e) => {
                e.preventDefault();
                create.mutate(body);
              }}
              validationBehavior="aria"
            >
              <Heading slot="title">New job</Heading>
              <SelectField
                label="Type"
                value={form.type}
                onChange={set('type')}
                options={JOB_TYPE_KEYS.map((t) => ({ value: t, label: `${JOB_TYPES[t].label} (${t})` }))}
                error={fields.type}
              />
              <SelectField
                label="Marketplace"
                value={form.marketplace}
                onChange={set('marketplace')}
                options={MARKETPLACES.map((m) => ({ value: m.code, label: `${m.code} · ${m.name}` }))}
                error={fields.marketplace}
              />
              <Field
                label="Targets"
                multiline
                rows={6}
                description={kind.target}
                placeholder={kind.placeholder}
                value={form.targets}
                onChange={set('targets')}
                error={fields.targets}
              />
              {kind.pages && (
                <div className="field">
                  <label htmlFor="job-pages">Pages</label>
                  <input
                    id="job-pages"
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={kind.pages.max}
                    value={form.pages}
                    onChange={(e) => set('pages')(e.target.value)}
                    aria-describedby="job-pages-help"
                    aria-invalid={!!fields.pages || undefined}
                  />
                  <span id="job-pages-help" className="muted">
                    {kind.pages.what}, 1 to {kind.pages.max}; each page is charged.
                  </span>
                  {fields.pages && <span className="field-error">{fields.pages}</span>}
                </div>
              )}
              {form.type === 'reviews' && (
                <SelectField
                  label="Sort"
                  value={form.sort}
                  onChange={set('sort')}
                  options={[
                    { value: '', label: 'Marketplace default' },
                    { value: 'recent', label: 'Most recent first' },
                    { value: 'helpful', label: 'Most helpful first' },
                  ]}
                  error={fields.sort}
                />
              )}
              <CostEstimate projectId={projectId} body={body} lineOf={lineOf} />
              <CreateJobAlert error={create.error} lineOf={lineOf} />
              <div className="row">
                <Button type="submit" isDisabled={create.isPending}>
                  Create job
                </Button>
                <Button variant="secondary" onPress={close}>
                  Cancel
                </Button>
              </div>
            </Form>
          )}
        </Dialog>
      </Modal>
    </DialogTrigger>
  );
}
