import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { Form } from 'react-aria-components';
import { api, type Schemas, unwrap } from '../../api/client';
import { Button, EmptyState, ErrorNotice, Loading, SelectField } from '../../ui/forms';
import { DateTime } from '../../ui/time';
import { Pager } from '../audit-log/pager';
import { EVENTS, type WebhookEvent } from './configs';

type Delivery = Schemas['WebhookDelivery'];
type Status = Delivery['status'];
type Attempt = Delivery['attempts'][number];

const STATUSES: ReadonlyArray<{ value: Status; label: string }> = [
  { value: 'pending', label: 'Pending' },
  { value: 'delivered', label: 'Delivered' },
  { value: 'failed', label: 'Failed' },
  { value: 'cancelled', label: 'Cancelled' },
];
const PAGE = 20;

const asStatus = (v: string | undefined) => STATUSES.find((s) => s.value === v)?.value;
const asEvent = (v: string | undefined) => EVENTS.find((e) => e.value === v)?.value;

const statusBadge: Record<Status, string> = { pending: 'warn', delivered: 'ok', failed: 'bad', cancelled: '' };

/** Resends and replays together, at most 5 per delivery; they are all among its last 10 attempts (5 automatic at most). */
const MANUAL_ATTEMPTS = 5;
const manualAttempts = (d: Delivery) => d.attempts.filter((a) => a.manual).length;

/** A delivery may be sent once more when it is finished, not cancelled and has manual attempts left (else the API answers 409). */
/** How long the list keeps refreshing after a resend. */
const RESENT_WATCH_MS = 30_000;
const resendable = (d: Delivery) => (d.status === 'delivered' || d.status === 'failed') && manualAttempts(d) < MANUAL_ATTEMPTS;

function AttemptOutcome({ attempt }: { attempt: Attempt }) {
  return attempt.statusCode !== null ? (
    <span className={attempt.success ? 'ok-text' : 'bad-text'}>HTTP {attempt.statusCode}</span>
  ) : (
    <span className="bad-text">{attempt.error ?? 'no answer'}</span>
  );
}

/** The attempts of a delivery (the API keeps the last 10), behind a native disclosure. */
function Attempts({ delivery }: { delivery: Delivery }) {
  if (delivery.attempts.length === 0) return <span className="muted">none yet</span>;
  return (
    <details className="attempts">
      <summary>
        {delivery.attemptCount} attempt{delivery.attemptCount === 1 ? '' : 's'}
      </summary>
      <ol>
        {delivery.attempts.map((a) => (
          <li key={a.attempt}>
            #{a.attempt}
            {a.manual ? ' (manual)' : ''}: <AttemptOutcome attempt={a} />, {a.durationMs} ms, <DateTime value={a.createdAt} withSeconds />
            {a.error && a.statusCode !== null && a.error !== `HTTP ${a.statusCode}` && <span className="block muted">{a.error}</span>}
            {a.responseBody && <pre className="snippet">{a.responseBody}</pre>}
          </li>
        ))}
      </ol>
    </details>
  );
}

/** Replays every failed delivery created since a time; the API re-arms at most 1,000 per call and says if more are left. */
function ReplayForm({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const [since, setSince] = useState(() => {
    const d = new Date(Date.now() - 24 * 3600_000);
    d.setMinutes(d.getMinutes() - d.getTimezoneOffset());
    return d.toISOString().slice(0, 16);
  });
  const replay = useMutation({
    mutationFn: async () =>
      (
        await unwrap(
          api.POST('/v1/key/projects/{projectId}/webhooks/replay', {
            params: { path: { projectId } },
            body: { from: new Date(since).toISOString() },
          }),
        )
      ).data,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', projectId] }),
  });
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

export function Deliveries({ projectId, canWrite }: { projectId: string; canWrite: boolean }) {
  const search = useSearch({ strict: false }) as { status?: string; event?: string; offset?: number };
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const status = asStatus(search.status);
  const event = asEvent(search.event);
  const offset = search.offset ?? 0;
  const resentAt = useRef(0);
  const deliveries = useQuery({
    queryKey: ['webhook-deliveries', projectId, status, event, offset],
    queryFn: () =>
      unwrap(
        api.GET('/v1/key/projects/{projectId}/webhooks/deliveries', {
          params: { path: { projectId }, query: { status, event, offset, limit: PAGE } },
        }),
      ),
    // Pending deliveries change by themselves: keep the page current while any is on it, and for
    // a while after a resend, whose outcome may belong under another status filter.
    refetchInterval: (q) =>
      q.state.data?.data.some((d) => d.status === 'pending') || Date.now() - resentAt.current < RESENT_WATCH_MS ? 3000 : false,
  });
  const [resent, setResent] = useState<{ id: string; error: unknown } | null>(null);
  const resend = useMutation({
    mutationFn: (deliveryId: string) =>
      unwrap(
        api.POST('/v1/key/projects/{projectId}/webhooks/deliveries/{deliveryId}/resend', {
          params: { path: { projectId, deliveryId } },
        }),
      ),
    onSuccess: (_, id) => {
      resentAt.current = Date.now();
      setResent({ id, error: null });
      void queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', projectId] });
    },
    onError: (error, id) => setResent({ id, error }),
  });
  const filter = (next: { status?: Status; event?: WebhookEvent }) =>
    void navigate({
      to: '/console/projects/$projectId/webhooks',
      params: { projectId },
      search: (prev: Record<string, unknown>) => ({ ...prev, ...next, offset: undefined }),
    });

  const rows = deliveries.data?.data ?? [];
  return (
    <section aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">Delivery log</h2>
      <div className="filters">
        <SelectField<Status | ''>
          label="Status"
          value={status ?? ''}
          onChange={(v) => filter({ status: v || undefined, event })}
          options={[{ value: '', label: 'Any status' }, ...STATUSES]}
        />
        <SelectField<WebhookEvent | ''>
          label="Event"
          value={event ?? ''}
          onChange={(v) => filter({ status, event: v || undefined })}
          options={[{ value: '', label: 'Any event' }, ...EVENTS]}
        />
      </div>
      {canWrite && <ReplayForm projectId={projectId} />}
      {resent && (
        <div role="status">
          {resent.error ? (
            <ErrorNotice error={resent.error} title={`Delivery ${resent.id} was not resent.`} />
          ) : (
            <p className="notice ok">
              Delivery <span className="mono">{resent.id}</span> is pending: one more attempt is due now.
            </p>
          )}
        </div>
      )}
      {deliveries.isLoading && <Loading what="deliveries" />}
      <ErrorNotice error={deliveries.error} />
      {deliveries.data && rows.length === 0 && (
        <EmptyState title={status || event ? 'No deliveries match these filters' : 'No deliveries yet'}>
          <p>
            {status || event
              ? 'Choose another status or event, or clear the filters.'
              : 'Deliveries appear here when an event of an endpoint happens; Send test checks an endpoint now.'}
          </p>
        </EmptyState>
      )}
      {rows.length > 0 && (
        <div className="table-wrap contained">
          <table>
            <caption>Deliveries</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Delivery</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">Duration</th>
                <th scope="col">Response</th>
                <th scope="col">Created</th>
                {canWrite && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => {
                const last = d.attempts.at(-1);
                return (
                  <tr key={d.id}>
                    <td>
                      <code>{d.event}</code>
                    </td>
                    <td className="mono" id={`delivery-${d.id}`}>
                      {d.id}
                    </td>
                    <td>
                      <span className={`badge ${statusBadge[d.status]}`}>{d.status}</span>
                      {d.nextAttemptAt && (
                        <span className="block muted">
                          next <DateTime value={d.nextAttemptAt} withSeconds />
                        </span>
                      )}
                    </td>
                    <td>
                      <Attempts delivery={d} />
                    </td>
                    <td>{last ? <AttemptOutcome attempt={last} /> : <span className="muted">—</span>}</td>
                    <td>{last ? `${last.durationMs} ms` : <span className="muted">—</span>}</td>
                    <td className="response">
                      {last?.responseBody ? (
                        <span className="mono snippet-line">{last.responseBody.slice(0, 80)}</span>
                      ) : (
                        <span className="muted">—</span>
                      )}
                    </td>
                    <td className="nowrap">
                      <DateTime value={d.createdAt} withSeconds />
                    </td>
                    {canWrite && (
                      <td>
                        {manualAttempts(d) >= MANUAL_ATTEMPTS && <span className="muted">No resends left</span>}
                        {resendable(d) && (
                          <Button
                            variant="secondary"
                            aria-describedby={`delivery-${d.id}`}
                            isPending={resend.isPending && resend.variables === d.id}
                            onPress={() => resend.mutate(d.id)}
                          >
                            Resend
                          </Button>
                        )}
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {deliveries.data && (
        <Pager
          pagination={deliveries.data.pagination}
          label="Deliveries"
          page="/console/projects/$projectId/webhooks"
          projectId={projectId}
        />
      )}
    </section>
  );
}
