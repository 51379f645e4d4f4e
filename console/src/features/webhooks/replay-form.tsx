import { useState } from 'react';
import { useWrite } from '../../api/use-write';
import { Form } from 'react-aria-components';
import { Button, ErrorNotice } from '../../ui/forms';
import { replayFailed, webhookKeys } from './webhooks.queries';

/** Replays every failed delivery created since a time; the API re-arms at most 1,000 per call and says if more are left. */
export function ReplayForm({ projectId }: { projectId: string }) {
  const [since, setSince] = useState(() => {
    const d = new Date(Date.now() - 24 * 3600_000);
    d.setMinutes(d.getMinutes() - d.getTimezoneOffset());
    return d.toISOString().slice(0, 16);
  });
  const replay = useWrite(() => replayFailed(projectId, new Date(since).toISOString()), webhookKeys.deliveries(projectId));
  return (
    <Form
      className="filters replay"
      onSubmit={(e) => {
        e.preventDefault();
        if (!replay.isPending) replay.mutate();
      }}
    >
      <div className="field">
        <label htmlFor="replay-since">Replay failed since</label>
        <input id="replay-since" type="datetime-local" required value={since} onChange={(e) => setSince(e.target.value)} />
      </div>
      <div className="field">
        <Button type="submit" isPending={replay.isPending} isDisabled={!since}>
          {replay.data?.hasMore ? 'Replay the next ones' : 'Replay failed'}
        </Button>
      </div>
      <div role="status" className="replay-result">
        {replay.data && (
          <p>
            {replay.data.replayed === 0
              ? 'No failed delivery to replay since then (deliveries re-armed in the last minute or with 5 manual attempts are skipped).'
              : `${replay.data.replayed} failed deliver${replay.data.replayed === 1 ? 'y' : 'ies'} re-armed for one more attempt.`}
            {replay.data.hasMore && ' More are left: replay again to continue.'}
          </p>
        )}
      </div>
      <ErrorNotice error={replay.error} title="Replay refused." />
    </Form>
  );
}
