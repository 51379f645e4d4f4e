import { useParams } from '@tanstack/react-router';
import { useProjectOfPage } from '../ui/layout';

export function MembersPage() {
  const { projectId } = useParams({ strict: false }) as { projectId?: string };
  useProjectOfPage(projectId);
  return <h1>Members</h1>;
}
