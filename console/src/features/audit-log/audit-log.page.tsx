import { useQuery } from '@tanstack/react-query';
import { useParams, useSearch } from '@tanstack/react-router';
import { ApiError, type Schemas } from '../../api/client';
import { useProjectOfPage } from '../../ui/current-project';
import { EmptyState, ErrorNotice, Loading } from '../../ui/forms';
import { LinkPager } from '../../ui/pager';
import { Table } from '../../ui/table';
import { DateTime } from '../../ui/time';
import { useOrganizationOfProject } from '../members/organization';
import { describeAction, describeDetails } from './actions';
import { auditLogQuery } from './audit-log.queries';
import '../../ui/admin.css';

type Entry = Schemas['AuditLogEntry'];
const PAGE = 50;

function Subject({ subject }: { subject: Entry['subject'] }) {
  if (!subject) return <span className="muted">—</span>;
  return (
    <>
      {subject.type} <span className="mono">{subject.id}</span>
    </>
  );
}

/** Who acted: the service operator (admin CLI), or the user by email (by id for a user without one). */
function Actor({ entry }: { entry: Entry }) {
  if (entry.actorType === 'operator' || !entry.actor) return <span title="The service operator, through the admin CLI">Operator</span>;
  return entry.actor.email ? <>{entry.actor.email}</> : <span className="mono">{entry.actor.userId}</span>;
}

/** The organization's account changes, newest first: owners and admins only (the API answers 403 to the others). */
export function AuditLogPage() {
  const { projectId } = useParams({ strict: false }) as { projectId: string };
  useProjectOfPage(projectId);
  const { offset = 0 } = useSearch({ strict: false }) as { offset?: number };
  const { organization: org, isLoading, error } = useOrganizationOfProject(projectId);
  const log = useQuery(auditLogQuery(org?.organizationId, offset, PAGE));
  const forbidden = log.error instanceof ApiError && log.error.status === 403;
  const rows = log.data?.data ?? [];
  return (
    <>
      <h1>Audit log</h1>
      {org && (
        <p className="muted">
          Every account change in {org.organizationName} (sign-ins, keys, members, invitations, projects, passwords), webhook and schedule
          changes in its projects, and changes by the operator: who, when and from which address, newest first.
        </p>
      )}
      {(isLoading || log.isLoading) && <Loading what="the audit log" />}
      <ErrorNotice error={error} />
      {forbidden ? (
        <div className="notice error" role="alert">
          Only owners and admins may read the audit log of {org?.organizationName ?? 'this organization'}
          {org && !org.permissions.includes('audit.read') ? `; your role is ${org.role}` : ''}. Ask an owner or admin if you need an entry.
        </div>
      ) : (
        <ErrorNotice error={log.error} />
      )}
      {log.data && rows.length === 0 && <EmptyState title="Nothing recorded yet" />}
      {/* the table scrolls on narrow screens and has no links or buttons: focusable, so the keyboard can scroll it */}
      {rows.length > 0 && (
        <Table
          wrap="table-wrap contained"
          wrapProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Audit log entries' }}
          captionHidden
          caption="Audit log"
          columns={['Action', 'Actor', 'Subject', 'Details', 'Client address', 'Time']}
        >
          {rows.map((e) => (
            <tr key={e.id}>
              <td>
                {describeAction(e.action)}
                <span className="block muted mono">{e.action}</span>
              </td>
              <td>
                <Actor entry={e} />
              </td>
              <td>
                <Subject subject={e.subject} />
              </td>
              <td>{describeDetails(e.details) || <span className="muted">—</span>}</td>
              <td className="mono">{e.clientAddress ?? <span className="muted">—</span>}</td>
              <td className="nowrap">
                <DateTime value={e.createdAt} withSeconds />
              </td>
            </tr>
          ))}
        </Table>
      )}
      {log.data && (
        <LinkPager pagination={log.data.pagination} label="Audit log" page="/console/projects/$projectId/audit-log" projectId={projectId} />
      )}
    </>
  );
}
