import { useState } from 'react';
import { useWrite } from '../../api/use-write';
import { FormDialog } from '../../ui/form-dialog';
import { Button, Field, SelectField } from '../../ui/forms';
import { JOB_KINDS, JOB_TYPES, TARGET_HINTS } from '../jobs/job-kinds';
import type { JobType } from '../jobs/jobs.queries';
import { formatTime } from '../../ui/time';
import { describeCron, nextRuns } from './cron';
import { scheduleFieldErrors } from './field-errors';
import { createSchedule, scheduleKeys } from './schedules.queries';

const DEFAULT_CRON = '0 9 * * 1';
const DEFAULT_TYPE: JobType = 'details';

/** The crawl types, the form's default first, then the others in the job-type table's order. */
const TYPE_OPTIONS = [DEFAULT_TYPE, ...JOB_TYPES.filter((t) => t !== DEFAULT_TYPE)].map((value) => ({
  value,
  label: JOB_KINDS[value].scheduleLabel,
}));

/** Create a schedule: its cron (described and previewed as you type) and the crawl it starts. */
export function CreateScheduleDialog({ projectId }: { projectId: string }) {
  const [cron, setCron] = useState(DEFAULT_CRON);
  const [type, setType] = useState<JobType>(DEFAULT_TYPE);
  const [targets, setTargets] = useState('');
  const [marketplace, setMarketplace] = useState('');
  const create = useWrite(
    () =>
      createSchedule(projectId, {
        cron: cron.trim(),
        crawlConfig: {
          type,
          targets: targets
            .split('\n')
            .map((t) => t.trim())
            .filter(Boolean),
          ...(marketplace.trim() ? { config: { marketplace: marketplace.trim().toUpperCase() } } : {}),
        },
      }),
    scheduleKeys.ofProject(projectId),
  );
  const fields = scheduleFieldErrors(create.error);
  /** A setter that also drops the API's answer, which was about the form as it was. */
  const edited =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      if (create.error) create.reset();
    };
  const description = describeCron(cron);
  const preview = nextRuns(cron, 3);
  const reset = () => (create.reset(), setCron(DEFAULT_CRON), setType(DEFAULT_TYPE), setTargets(''), setMarketplace(''));

  return (
    <FormDialog
      trigger={<Button>Create schedule</Button>}
      title="Create schedule"
      submitLabel="Create schedule"
      onOpenChange={(open) => !open && reset()}
      onSubmit={(close) => create.mutate(undefined, { onSuccess: close })}
      isPending={create.isPending}
      pendingStyle="disabled"
      error={create.error}
      errorTitle="The schedule was not created."
    >
      <Field
        label="Cron expression"
        description={
          description
            ? `${description}. Next: ${preview.map((d) => `${formatTime(d, { utc: true })} (${formatTime(d)} your time)`).join('; ')}.`
            : '5 fields (minute hour day-of-month month day-of-week) or 6 with seconds first, in UTC; at most once a minute.'
        }
        isRequired
        autoFocus
        value={cron}
        onChange={edited(setCron)}
        error={fields.cron}
      />
      <SelectField<JobType> label="Crawl type" value={type} onChange={edited(setType)} options={TYPE_OPTIONS} error={fields.type} />
      <Field
        label="Targets"
        description={TARGET_HINTS[JOB_KINDS[type].target]}
        multiline
        rows={4}
        isRequired
        value={targets}
        onChange={edited(setTargets)}
        error={fields.targets ?? fields.crawlConfig}
      />
      <Field
        label="Marketplace (optional)"
        description="A marketplace code such as US, UK or DE; US when empty."
        value={marketplace}
        onChange={edited(setMarketplace)}
        error={fields.marketplace}
      />
    </FormDialog>
  );
}
