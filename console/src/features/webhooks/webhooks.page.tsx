import { useParams } from '@tanstack/react-router';
import { useProjectOfPage } from '../../ui/current-project';
import { ErrorNotice } from '../../ui/forms';
import { ReadOnlyNote, useCan } from '../../ui/permissions';
import { useOrganizationOfProject } from '../members/organization';
import { Deliveries } from './deliveries';
import { Endpoints } from './endpoints';
import '../../ui/admin.css';
import './webhooks.css';

/**
 * The project's webhook endpoints (the PATCH replaces them all at once, so every change here sends
 * every configuration back, secrets included) and the delivery log with resend and replay.
 */
export function WebhooksPage() {
  const { projectId } = useParams({ strict: false }) as { projectId: string };
  useProjectOfPage(projectId);
  const { error } = useOrganizationOfProject(projectId);
  // without data.write (viewers) the page only reads; the API answers 403 to such writes anyway
  const writer = useCan('data.write', projectId);
  const canWrite = writer.allowed;
  return (
    <>
      <h1>Webhooks</h1>
      <p className="muted">
        Each endpoint receives signed POSTs of one event. Only a 2xx answer counts as delivered; anything else is retried 5 times over about
        a day, then the delivery is failed and can be resent or replayed.
      </p>
      <ErrorNotice error={error} />
      <ReadOnlyNote can={writer} />
      <Endpoints projectId={projectId} canWrite={canWrite} />
      <Deliveries projectId={projectId} canWrite={canWrite} />
    </>
  );
}
