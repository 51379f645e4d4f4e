import { useParams } from '@tanstack/react-router';
import { useProjectOfPage } from '../ui/layout';

export function AuditLogPage() {
  const { projectId } = useParams({ strict: false }) as { projectId?: string };
  useProjectOfPage(projectId);
  return <h1>Audit log</h1>;
}
