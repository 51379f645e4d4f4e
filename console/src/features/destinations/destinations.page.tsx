import { useQuery } from '@tanstack/react-query';
import { useParams, useSearch } from '@tanstack/react-router';
import { useProjectOfPage } from '../../ui/current-project';
import { EmptyState, ErrorNotice, Loading } from '../../ui/forms';
import { ReadOnlyNote, useCan } from '../../ui/permissions';
import { schedulesQuery } from '../schedules/schedules.queries';
import { AddDestinationDialog } from './add-destination-dialog';
import { DeliveryLog, type DeliveryLogSearch } from './delivery-log';
import { destinationsQuery } from './destinations.queries';
import { DestinationsTable } from './destinations-table';
import '../../ui/admin.css';
import './destinations.css';

/** The project's storage destinations and, for one of them, the delivery log (docs/destinations.md). */
export function DestinationsPage() {
  const { projectId } = useParams({ strict: false }) as { projectId: string };
  useProjectOfPage(projectId);
  const search = useSearch({ strict: false }) as DeliveryLogSearch;
  // without data.write (viewers) the page only reads, and says why once; the API answers 403 to such writes anyway
  const writer = useCan('data.write', projectId);
  const canWrite = writer.allowed;
  const destinations = useQuery(destinationsQuery(projectId));
  const schedules = useQuery(schedulesQuery(projectId));
  const list = destinations.data;
  return (
    <div className="destinations-page">
      <div className="page-head">
        <h1>Destinations</h1>
        {canWrite && <AddDestinationDialog projectId={projectId} schedules={schedules.data?.data} />}
      </div>
      <p className="muted">
        A destination is an S3 bucket (AWS S3 or S3-compatible storage) that receives the export of every completed job, one object per job
        at <code>{'{prefix}{projectId}/YYYY/MM/DD/{jobId}.{ext}'}</code>. It is saved only after a test object was written and deleted with
        its key.
      </p>
      <ReadOnlyNote can={writer} />
      {destinations.isLoading && <Loading what="destinations" />}
      <ErrorNotice error={destinations.error} />
      {list && list.length === 0 && (
        <EmptyState title="No destinations yet">
          <p>
            Add one to have every completed job&apos;s results written to your own bucket, ready for a warehouse or a pipeline to load: no
            download, no polling. Give it a bucket, a key that may write and delete objects there, and a format (JSON, JSON Lines, CSV or
            LLM, gzipped if you like); a schedule&apos;s jobs only, if you choose.
          </p>
        </EmptyState>
      )}
      {list && list.length > 0 && (
        <>
          <DestinationsTable destinations={list} schedules={schedules.data?.data} canWrite={canWrite} />
          <DeliveryLog projectId={projectId} destinations={list} search={search} canWrite={canWrite} />
        </>
      )}
    </div>
  );
}
