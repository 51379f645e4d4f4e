import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { count } from '../../ui/format';
import { Button, EmptyState, ErrorNotice, Loading, SelectField } from '../../ui/forms';
import { ButtonPager } from '../../ui/pager';
import { ACTIONS, Table } from '../../ui/table';
import { DateTime } from '../../ui/time';
import {
  type DeliveryStatus,
  type Destination,
  type DestinationDelivery,
  destinationKeys,
  fetchDeliveries,
  retryDelivery,
} from './destinations.queries';
import { formatBytes } from './format';

export const STATUSES: ReadonlyArray<{ value: DeliveryStatus; label: string }> = [
  { value: 'pending', label: 'Pending' },
  { value: 'delivered', label: 'Delivered' },
  { value: 'failed', label: 'Failed' },
];
export const statusBadge: Record<DeliveryStatus, string> = { pending: 'badge warn', delivered: 'badge ok', failed: 'badge bad' };
export const asStatus = (v: string | undefined) => STATUSES.find((s) => s.value === v)?.value;

const PAGE = 20;

export interface DeliveryLogSearch {
  destination?: string;
  status?: string;
  offset?: number;
}

/** The storage's code and message of a delivery's last failure, or a dash. */
export function LastError({ delivery }: { delivery: DestinationDelivery }) {
  if (!delivery.error) return <span className="muted">—</span>;
  return (
    <>
      <code className="error-code">{delivery.error.code}</code> <span>{delivery.error.message}</span>
    </>
  );
}

/**
 * One destination's deliveries, newest first: the job, the object key, its size, status and
 * attempts, the last error, and Retry (the export sent again now) for writers. The destination,
 * the status filter and the offset live in the URL.
 */
export function DeliveryLog(props: { projectId: string; destinations: Destination[]; search: DeliveryLogSearch; canWrite: boolean }) {
  const { projectId, destinations, canWrite } = props;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const destination = destinations.find((d) => d.id === props.search.destination) ?? destinations[0]!;
  const status = asStatus(props.search.status);
  const offset = props.search.offset ?? 0;
  const deliveries = useQuery({
    queryKey: destinationKeys.deliveries(projectId, destination.id, { status, offset }),
    queryFn: () => fetchDeliveries(destination.id, { status, offset, limit: PAGE }),
    // a pending delivery changes by itself, and each job that completes adds one: follow both
    refetchInterval: (q) => (q.state.data?.data.some((d) => d.status === 'pending') ? 3000 : 10_000),
  });
  const [retried, setRetried] = useState<{ jobId: string; error: unknown } | null>(null);
  const retry = useMutation({
    mutationFn: (jobId: string) => retryDelivery(destination.id, jobId),
    onSuccess: (_, jobId) => {
      setRetried({ jobId, error: null });
      void queryClient.invalidateQueries({ queryKey: destinationKeys.ofProject(projectId) });
    },
    onError: (error, jobId) => setRetried({ jobId, error }),
  });
  const go = (next: DeliveryLogSearch) => {
    setRetried(null);
    void navigate({
      to: '/console/projects/$projectId/destinations',
      params: { projectId },
      search: (prev: Record<string, unknown>) => ({ ...prev, ...next }),
    });
  };
  const rows = deliveries.data?.data ?? [];
  const total = deliveries.data?.pagination.total ?? 0;
  return (
    <section aria-labelledby="delivery-log-heading" className="delivery-log">
      <h2 id="delivery-log-heading">Delivery log</h2>
      <div className="filters">
        {destinations.length > 1 && (
          <SelectField<string>
            label="Destination"
            value={destination.id}
            onChange={(v) => go({ destination: v, offset: undefined })}
            options={destinations.map((d) => ({ value: d.id, label: d.name }))}
          />
        )}
        <SelectField<DeliveryStatus | ''>
          label="Status"
          value={status ?? ''}
          onChange={(v) => go({ status: v || undefined, offset: undefined })}
          options={[{ value: '', label: 'Any status' }, ...STATUSES]}
        />
      </div>
      {retried && (
        <div role="status">
          {retried.error ? (
            <ErrorNotice error={retried.error} title={`The export of job ${retried.jobId} was not sent again.`} />
          ) : (
            <p className="notice ok">
              The export of job <span className="mono">{retried.jobId}</span> is being sent to {destination.name} again.
            </p>
          )}
        </div>
      )}
      {deliveries.isLoading && <Loading what="deliveries" />}
      <ErrorNotice error={deliveries.error} />
      {deliveries.data && rows.length === 0 && (
        <EmptyState title={status ? 'No deliveries with this status' : `Nothing delivered to ${destination.name} yet`}>
          <p>
            {status
              ? 'Choose another status, or Any status.'
              : 'Each job that completes from now on is exported here, one object per job, and listed with its key and size.'}
          </p>
        </EmptyState>
      )}
      {rows.length > 0 && (
        <Table
          wrap="table-wrap contained"
          caption="Delivery log"
          captionHidden
          columns={['Job', 'Key', 'Size', 'Status', 'Attempts', 'Last error', 'Delivered', canWrite && ACTIONS]}
        >
          {rows.map((d) => (
            <tr key={d.jobId}>
              <td id={`delivery-${d.jobId}`}>
                <Link to="/console/jobs/$jobId" params={{ jobId: d.jobId }} className="mono">
                  {d.jobId}
                </Link>
              </td>
              <td className="key mono">{d.key}</td>
              <td className="nowrap">
                {d.bytes === null ? (
                  <span className="muted">—</span>
                ) : (
                  <span title={`${count(d.bytes)} bytes`}>{formatBytes(d.bytes)}</span>
                )}
              </td>
              <td>
                <span className={statusBadge[d.status]}>{d.status}</span>
              </td>
              <td>{count(d.attempts)}</td>
              <td>
                <LastError delivery={d} />
              </td>
              <td className="nowrap">
                <DateTime value={d.deliveredAt} withSeconds />
              </td>
              {canWrite && (
                <td>
                  <Button
                    variant="secondary"
                    aria-describedby={`delivery-${d.jobId}`}
                    isPending={retry.isPending && retry.variables === d.jobId}
                    onPress={() => retry.mutate(d.jobId)}
                  >
                    Retry
                  </Button>
                </td>
              )}
            </tr>
          ))}
        </Table>
      )}
      {deliveries.data && total > PAGE && (
        <ButtonPager
          label="Delivery log pages"
          offset={offset}
          pageSize={PAGE}
          total={total}
          onOffset={(o) => go({ offset: o || undefined })}
        >
          {offset + 1 <= total ? `${offset + 1}–${Math.min(offset + PAGE, total)} of ${count(total)}` : `past the last of ${count(total)}`}
        </ButtonPager>
      )}
    </section>
  );
}
