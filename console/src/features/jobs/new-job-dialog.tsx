import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { FormDialog } from '../../ui/form-dialog';
import { Button, Field, SelectField } from '../../ui/forms';
import { CostEstimate, useCostEstimate } from './cost-estimate';
import { CreditsHelp } from './credits-help';
import { JOB_KINDS, JOB_TYPES } from './job-kinds';
import { createJob, type JobBody, jobKeys, type JobType } from './jobs.queries';
import { MARKETPLACE_CODES, type MarketplaceCode, marketplaceName } from './marketplaces';
import { CreateJobAlert, jobFormProblems } from './problems';

type Sort = '' | 'recent' | 'helpful';

interface FormState {
  type: JobType;
  marketplace: MarketplaceCode;
  targets: string;
  pages: string;
  sort: Sort;
}

const INITIAL: FormState = { type: 'details', marketplace: 'US', targets: '', pages: '1', sort: '' };

/** The body the form stands for, and the textarea line of each target sent (blank lines are left out). */
function bodyOf(form: FormState): { body: JobBody; lines: number[] } {
  const lines: number[] = [];
  const targets: string[] = [];
  form.targets.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    lines.push(i + 1);
    targets.push(line.trim());
  });
  const kind = JOB_KINDS[form.type];
  const config: NonNullable<JobBody['config']> = { marketplace: form.marketplace };
  if (kind.pages && form.pages) config.pages = Number(form.pages);
  if (kind.sortable && form.sort) config.sort = form.sort;
  return { body: { type: form.type, targets, config }, lines };
}

/** `New job`: a dialog with the job's type, marketplace, targets and options, its cost, and `Create job`. */
export function NewJobDialog({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [form, setForm] = useState<FormState>(INITIAL);
  const { body, lines } = useMemo(() => bodyOf(form), [form]);
  const lineOf = (index: number) => lines[index] ?? index + 1;

  const create = useMutation({
    mutationFn: (sent: JobBody) => createJob(projectId, sent),
    onSuccess: ({ data }) => {
      void queryClient.invalidateQueries({ queryKey: jobKeys.ofProject(projectId) });
      queryClient.setQueryData(jobKeys.one(data.id), data);
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
  const kind = JOB_KINDS[form.type];
  const cost = useCostEstimate(projectId, body);
  // the API would answer 402 to this very body: no Create until the form or the balance changes
  const refused = body.targets.length > 0 && cost.estimate.data && !cost.estimate.data.accepted ? cost.estimate.data : null;

  return (
    <FormDialog
      trigger={<Button>New job</Button>}
      title="New job"
      submitLabel="Create job"
      className="dialog new-job"
      validationBehavior="aria"
      onOpenChange={(open) => !open && (create.reset(), setForm(INITIAL))}
      onSubmit={() => create.mutate(body)}
      isPending={create.isPending}
      pendingStyle="disabled"
      isSubmitDisabled={!!refused}
      submitNote={
        refused && (
          <>
            <p>
              <strong>Create job is disabled:</strong> {refused.refusal?.message ?? 'the service would refuse this job.'}
            </p>
            {refused.refusal?.code === 'INSUFFICIENT_CREDITS' && <CreditsHelp projectId={projectId} />}
          </>
        )
      }
    >
      <SelectField
        label="Type"
        value={form.type}
        onChange={set('type')}
        options={JOB_TYPES.map((t) => ({ value: t, label: `${JOB_KINDS[t].label} (${t})` }))}
        error={fields.type}
      />
      <SelectField
        label="Marketplace"
        value={form.marketplace}
        onChange={set('marketplace')}
        options={MARKETPLACE_CODES.map((code) => ({ value: code, label: `${code} · ${marketplaceName(code)}` }))}
        error={fields.marketplace}
      />
      <Field
        label="Targets"
        multiline
        rows={6}
        description={kind.targetHelp}
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
      {kind.sortable && (
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
      <CostEstimate body={body} lineOf={lineOf} state={cost} />
      <CreateJobAlert error={create.error} lineOf={lineOf} projectId={projectId} />
    </FormDialog>
  );
}
