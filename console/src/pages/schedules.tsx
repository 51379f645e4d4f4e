import { useParams } from '@tanstack/react-router';
import { useProjectOfPage } from '../ui/layout';

export function SchedulesPage() {
  const { projectId } = useParams({ strict: false }) as { projectId?: string };
  useProjectOfPage(projectId);
  return <h1>Schedules</h1>;
}
