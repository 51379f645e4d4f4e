import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Dialog, DialogTrigger, Form, Heading, Modal } from 'react-aria-components';
import { api, type Schemas, unwrap } from '../../api/client';
import { Button, ErrorNotice, Field, SelectField } from '../../ui/forms';
import { describeCron, formatLocal, formatUtc, nextRuns } from './cron';
import { scheduleFieldErrors } from './field-errors';

type JobType = Schemas['CreateScheduleBody']['crawlConfig']['type'];

const TYPES: ReadonlyArray<{ value: JobType; label: string }> = [
  { value: 'details', label: 'Product details' },
  { value: 'search', label: 'Search results' },
  { value: 'offers', label: 'Offers' },
  { value: 'bestsellers', label: 'Best sellers' },
  { value: 'reviews', label: 'Reviews' },
];

const TARGET_HINTS: Record<JobType, string> = {
  details: 'One ASIN or product URL per line.',
  search: 'One keyword per line.',
  offers: 'One ASIN or product URL per line.',
  bestsellers: 'One best-sellers list URL per line.',
  reviews: 'One ASIN or product URL per line.',
};

/** Create a schedule: its cron (described and previewed as you type) and the crawl it starts. */
export function CreateScheduleDialog({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const [cron, setCron] = useState('0 9 * * 1');
  const [type, setType] = useState<JobType>('details');
  const [targets, setTargets] = useState('');
  const [marketplace, setMarketplace] = useState('');
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/key/projects/{projectId}/schedules', {
          params: { path: { projectId } },
          body: {
            cron: cron.trim(),
            crawlConfig: {
              type,
              targets: targets
                .split('\n')
                .map((t) => t.trim())
                .filter(Boolean),
              ...(marketplace.trim() ? { config: { marketplace: marketplace.trim().toUpperCase() } } : {}),
            },
          },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['schedules', projectId] }),
  });
  const fields = scheduleFieldErrors(create.error);
  const description = describeCron(cron);
  const preview = nextRuns(cron, 3);
  const reset = () => (create.reset(), setCron('0 9 * * 1'), setType('details'), setTargets(''), setMarketplace(''));

  return (
    <DialogTrigger onOpenChange={(open) => !open && reset()}>
      <Button>Create schedule</Button>
      <Modal className="modal" isDismissable>
        <Dialog className="dialog">
          {({ close }) => (
            <Form
              onSubmit={(e) => {
                e.preventDefault();
                create.mutate(undefined, { onSuccess: close });
              }}
            >
              <Heading slot="title">Create schedule</Heading>
              <Field
                label="Cron expression"
                description={
                  description
                    ? `${description}. Next: ${preview.map((d) => `${formatUtc(d)} (${formatLocal(d)} your time)`).join('; ')}.`
                    : '5 fields (minute hour day-of-month month day-of-week) or 6 with seconds first, in UTC; at most once a minute.'
                }
                isRequired
                autoFocus
                value={cron}
                onChange={setCron}
                error={fields.cron}
              />
              <SelectField<JobType> label="Crawl type" value={type} onChange={setType} options={TYPES} error={fields.type} />
              <Field
                label="Targets"
                description={TARGET_HINTS[type]}
                multiline
                rows={4}
                isRequired
                value={targets}
                onChange={setTargets}
                error={fields.targets ?? fields.crawlConfig}
              />
              <Field
                label="Marketplace (optional)"
                description="A marketplace code such as US, UK or DE; US when empty."
                value={marketplace}
                onChange={setMarketplace}
                error={fields.marketplace}
              />
              <ErrorNotice error={create.error} title="The schedule was not created." />
              <div className="row">
                <Button type="submit" isDisabled={create.isPending}>
                  Create schedule
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
