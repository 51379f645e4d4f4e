import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { Button, EmptyState, ErrorNotice, Loading, SelectField } from '../../ui/forms';
import { LinkPager } from '../../ui/pager';
import { ACTIONS, Table } from '../../ui/table';
import { DateTime } from '../../ui/time';
import { AttemptOutcome, Attempts } from './attempts';
import { ReplayForm } from './replay-form';
import {
  type Delivery,
  type DeliveryStatus as Status,
  EVENTS,
  fetchDeliveries,
  resendDelivery,
  webhookKeys,
  type WebhookEvent,
} from './webhooks.queries';

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

/** How long the list keeps refreshing after a resend. */
const RESENT_WATCH_MS = 30_000;
/** A delivery may be sent once more when it is finished, not cancelled and has manual attempts left (else the API answers 409). */
const resendable = (d: Delivery) => (d.status === 'delivered' || d.status === 'failed') && manualAttempts(d) < MANUAL_ATTEMPTS;

export function Deliveries({ projectId, canWrite }: { projectId: string; canWrite: boolean }) {
  const search = useSearch({ strict: false }) as { status?: string; event?: string; offset?: number };
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const status = asStatus(search.status);
  const event = asEvent(search.event);
  const offset = search.offset ?? 0;
  const resentAt = useRef(0);
  const deliveries = useQuery({
    queryKey: webhookKeys.deliveriesPage(projectId, { status, event, offset }),
    queryFn: () => fetchDeliveries(projectId, { status, event, offset, limit: PAGE }),
    // Pending deliveries change by themselves: keep the page current while any is on it, and for
    // a while after a resend, whose outcome may belong under another status filter.
    refetchInterval: (q) =>
      q.state.data?.data.some((d) => d.status === 'pending') || Date.now() - resentAt.current < RESENT_WATCH_MS ? 3000 : false,
  });
  const [resent, setResent] = useState<{ id: string; error: unknown } | null>(null);
  const resend = useMutation({
    mutationFn: (deliveryId: string) => resendDelivery(projectId, deliveryId),
    onSuccess: (_, id) => {
      resentAt.current = Date.now();
      setResent({ id, error: null });
      void queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(projectId) });
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
        <Table
          wrap="table-wrap contained"
          caption="Deliveries"
          columns={['Event', 'Delivery', 'Status', 'Attempts', 'Last answer', 'Duration', 'Response', 'Created', canWrite && ACTIONS]}
        >
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
        </Table>
      )}
      {deliveries.data && (
        <LinkPager
          pagination={deliveries.data.pagination}
          label="Deliveries"
          page="/console/projects/$projectId/webhooks"
          projectId={projectId}
        />
      )}
    </section>
  );
}
