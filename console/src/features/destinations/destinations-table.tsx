import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ConfirmAction } from '../../ui/confirm-action';
import { ACTIONS, Table } from '../../ui/table';
import type { Schedule } from '../schedules/schedules.queries';
import { type Destination, deleteDestination, destinationKeys } from './destinations.queries';
import { bucketPath, endpointHost } from './format';

function DeleteDestination({ destination, nameId }: { destination: Destination; nameId: string }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => deleteDestination(destination.id),
    // only the list is read again: its deliveries are gone with it (a refetch would be a 404)
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: ['destinations', destination.projectId, 'deliveries', destination.id] });
      void queryClient.invalidateQueries({ queryKey: destinationKeys.list(destination.projectId) });
    },
  });
  return (
    <ConfirmAction
      label="Delete"
      describedBy={nameId}
      title={`Delete the destination “${destination.name}”?`}
      confirmLabel="Delete destination"
      action={remove}
      pendingStyle="disabled"
    >
      <p>
        No further job is exported to <span className="mono">{bucketPath(destination)}</span>. The objects already written stay in the
        bucket; this console no longer lists their deliveries.
      </p>
    </ConfirmAction>
  );
}

function Jobs({ destination, schedules }: { destination: Destination; schedules: Schedule[] | undefined }) {
  if (!destination.scheduleIds) return <>Every completed job</>;
  return (
    <>
      Jobs of {destination.scheduleIds.length === 1 ? 'the schedule' : `${destination.scheduleIds.length} schedules`}
      <ul className="plain">
        {destination.scheduleIds.map((id) => {
          const s = schedules?.find((x) => x.id === id);
          return (
            <li key={id}>
              {s ? <code>{s.cron}</code> : null} <span className="mono muted">{id}</span>
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** The project's destinations: where each writes, in which format, which jobs it takes; Delete for writers. */
export function DestinationsTable(props: { destinations: Destination[]; schedules: Schedule[] | undefined; canWrite: boolean }) {
  return (
    <Table
      wrap="table-wrap contained"
      caption="Destinations"
      captionHidden
      className="destinations"
      columns={['Name', 'Where', 'Format', 'Jobs', props.canWrite && ACTIONS]}
    >
      {props.destinations.map((d) => {
        const nameId = `destination-${d.id}`;
        return (
          <tr key={d.id}>
            <td id={nameId}>
              <strong className="block">{d.name}</strong>
              <span className="mono muted block">{d.id}</span>
            </td>
            <td>
              <span className="mono url">{bucketPath(d)}</span>
              <span className="block muted">
                {d.endpoint ? (
                  <>
                    at <span className="mono url">{endpointHost(d.endpoint)}</span>, {d.region}
                  </>
                ) : (
                  <>AWS S3, {d.region}</>
                )}
              </span>
              <span className="block muted">
                key <span className="mono">{d.accessKeyId}</span>
              </span>
            </td>
            <td className="nowrap">
              <code>{d.format}</code>
              {d.gzip && <span className="block muted">gzipped (.gz)</span>}
            </td>
            <td>
              <Jobs destination={d} schedules={props.schedules} />
            </td>
            {props.canWrite && (
              <td>
                <DeleteDestination destination={d} nameId={nameId} />
              </td>
            )}
          </tr>
        );
      })}
    </Table>
  );
}
