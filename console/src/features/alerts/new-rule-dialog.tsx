import { useEffect, useMemo, useRef, useState } from 'react';
import { useWrite } from '../../api/use-write';
import { FormDialog } from '../../ui/form-dialog';
import { Button, Field, SelectField } from '../../ui/forms';
import { FIELD_LABELS } from '../tracking/format';
import { MARKETPLACE_CODES, type MarketplaceCode, marketplaceName } from '../jobs/marketplaces';
import { alertKeys, type AlertCondition, createAlertRule, type CreateAlertRuleBody } from './alerts.queries';
import {
  type Baseline,
  BASELINES,
  CONDITION_TYPES,
  CONDITIONS,
  type ConditionType,
  describeCondition,
  type WatchedField,
  WATCHED_FIELDS,
} from './conditions';
import { formatDuration } from './duration';
import { ruleFieldErrors } from './field-errors';
import { NotifyMembers } from './notify-members';
import { RulePreview } from './rule-preview';

interface FormState {
  name: string;
  type: ConditionType;
  value: string;
  baseline: Baseline;
  field: WatchedField;
  asins: string;
  marketplace: MarketplaceCode | '';
  postalCode: string;
  cooldownSeconds: string;
  maxPerDay: string;
  notify: string[];
}

/** The API's defaults (docs/alerts.md), shown in the form rather than left implicit. */
const INITIAL: FormState = {
  name: '',
  type: 'price_below',
  value: '',
  baseline: 'previous',
  field: 'price',
  asins: '',
  marketplace: '',
  postalCode: '',
  cooldownSeconds: '3600',
  maxPerDay: '20',
  notify: [],
};

/**
 * A number as typed ("19,99" too). What does not read as one is sent as typed, so the API's
 * validation, the one source of its rules, says what is wrong with it next to the field.
 */
const numberOf = (text: string): number => {
  const n = Number(text.trim().replace(',', '.'));
  return (Number.isFinite(n) ? n : text.trim()) as number;
};

/** The body the form stands for, and the textbox line of each ASIN sent (blank lines are left out). */
function bodyOf(form: FormState): { body: CreateAlertRuleBody; lines: number[] } {
  const kind = CONDITIONS[form.type];
  const condition = {
    type: form.type,
    ...(kind.value && form.value.trim() ? { value: numberOf(form.value) } : {}),
    ...(kind.baseline ? { baseline: form.baseline } : {}),
    ...(kind.field ? { field: form.field } : {}),
  } as AlertCondition;
  const lines: number[] = [];
  const asins: string[] = [];
  form.asins.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    lines.push(i + 1);
    asins.push(line.trim());
  });
  const body: CreateAlertRuleBody = { name: form.name, condition };
  if (asins.length) body.asins = asins;
  if (form.marketplace) body.marketplace = form.marketplace;
  if (form.marketplace && form.postalCode.trim()) body.postalCode = form.postalCode.trim();
  if (form.cooldownSeconds.trim()) body.cooldownSeconds = numberOf(form.cooldownSeconds);
  if (form.maxPerDay.trim()) body.maxPerDay = numberOf(form.maxPerDay);
  if (form.notify.length) body.notify = { members: form.notify };
  return { body, lines };
}

/** What the rule will watch, in one sentence, as the form stands. */
function scopeOf(body: CreateAlertRuleBody): string {
  const products = body.asins?.length
    ? `${body.asins.length} product${body.asins.length === 1 ? '' : 's'}`
    : 'every tracked product of the project';
  const where = body.marketplace ? ` on ${body.marketplace}${body.postalCode ? ` delivered to ${body.postalCode}` : ''}` : '';
  return `${products}${where}`;
}

/** `New alert rule`: the rule's name, its condition (with its value, baseline or field), its products, cooldown and daily cap. */
export function NewRuleDialog({ projectId }: { projectId: string }) {
  const [form, setForm] = useState<FormState>(INITIAL);
  const { body, lines } = useMemo(() => bodyOf(form), [form]);
  const create = useWrite(() => createAlertRule(projectId, body), alertKeys.ofProject(projectId));
  const set =
    <K extends keyof FormState>(key: K) =>
    (value: FormState[K]) => {
      setForm((f) => ({ ...f, [key]: value }));
      // the API's answer was about the form as it was: an edit makes it stale, and the form sendable again
      if (create.error) create.reset();
    };
  const errors = ruleFieldErrors(create.error, (i) => lines[i] ?? i + 1);
  const kind = CONDITIONS[form.type];
  const cooldown = Number(form.cooldownSeconds);
  const complete = !kind.value || form.value.trim() !== '';
  // the API's alert is drawn above the submit button, which it pushes below the fold of a tall
  // dialog: bring both back into view, where the focus still is
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (create.error) end.current?.closest('form')?.querySelector('button[type="submit"]')?.scrollIntoView({ block: 'nearest' });
  }, [create.error]);

  return (
    <FormDialog
      trigger={<Button>New alert rule</Button>}
      title="New alert rule"
      submitLabel="Create rule"
      className="dialog new-rule"
      validationBehavior="aria"
      onOpenChange={(open) => !open && (create.reset(), setForm(INITIAL))}
      onSubmit={(close) => create.mutate(undefined, { onSuccess: close })}
      isPending={create.isPending}
      error={create.error}
      errorTitle="The rule was not created."
    >
      <Field label="Name" autoFocus isRequired value={form.name} onChange={set('name')} error={errors.name} />
      <div className="pair">
        <SelectField<ConditionType>
          label="Condition"
          value={form.type}
          onChange={set('type')}
          options={CONDITION_TYPES.map((t) => ({ value: t, label: CONDITIONS[t].label }))}
          error={errors.condition}
        />
        {kind.value && (
          <Field
            label="Value"
            inputMode="decimal"
            isRequired
            value={form.value}
            onChange={set('value')}
            description={kind.value.help}
            error={errors.value}
          />
        )}
        {kind.field && (
          <SelectField<WatchedField>
            label="Field"
            value={form.field}
            onChange={set('field')}
            options={WATCHED_FIELDS.map((f) => ({ value: f, label: FIELD_LABELS[f] }))}
            error={errors.field}
          />
        )}
      </div>
      {kind.baseline && (
        <div className="pair">
          <SelectField<Baseline>
            label="Baseline"
            value={form.baseline}
            onChange={set('baseline')}
            options={(Object.keys(BASELINES) as Baseline[]).map((b) => ({ value: b, label: BASELINES[b] }))}
            error={errors.baseline}
          />
        </div>
      )}
      <Field
        label="ASINs"
        multiline
        rows={3}
        value={form.asins}
        onChange={set('asins')}
        description="One ASIN or product URL per line, at most 1,000; empty: every tracked product of the project."
        error={errors.asins}
      />
      <div className="pair">
        <SelectField<MarketplaceCode | ''>
          label="Marketplace"
          value={form.marketplace}
          onChange={set('marketplace')}
          options={[
            { value: '', label: 'Any marketplace' },
            ...MARKETPLACE_CODES.map((code) => ({ value: code, label: `${code} · ${marketplaceName(code)}` })),
          ]}
          error={errors.marketplace}
        />
        {form.marketplace && (
          <Field
            label="Postal code (optional)"
            value={form.postalCode}
            onChange={set('postalCode')}
            description="One delivery location's series; empty: every location."
            error={errors.postalCode}
          />
        )}
      </div>
      <div className="pair">
        <Field
          label="Cooldown (seconds)"
          inputMode="numeric"
          value={form.cooldownSeconds}
          onChange={set('cooldownSeconds')}
          description={`Per product after an alert${Number.isFinite(cooldown) && form.cooldownSeconds.trim() ? `: ${formatDuration(cooldown)}` : ''}; at most 30 days.`}
          error={errors.cooldownSeconds}
        />
        <Field
          label="Alerts per day"
          inputMode="numeric"
          value={form.maxPerDay}
          onChange={set('maxPerDay')}
          description="More in a UTC day are recorded as suppressed, not sent."
          error={errors.maxPerDay}
        />
      </div>
      <NotifyMembers projectId={projectId} value={form.notify} onChange={set('notify')} />
      {complete && (
        <p className="rule-summary">
          <strong>{describeCondition(body.condition)}</strong>, for {scopeOf(body)}: one alert when it becomes true, then again only once it
          was false and the cooldown has passed.
        </p>
      )}
      <RulePreview projectId={projectId} body={body} complete={complete} />
      <div ref={end} />
    </FormDialog>
  );
}
