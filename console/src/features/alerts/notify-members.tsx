import { useQuery } from '@tanstack/react-query';
import { membersQuery } from '../members/members.queries';
import { useOrganizationOfProject } from '../members/organization';

/**
 * `notify.members`: the organization's members a rule mails on each alert (docs/alerts.md,
 * "Mail"), as a group of checkboxes. The API takes verified members only; one it refuses is
 * named in the dialog's error.
 */
export function NotifyMembers({
  projectId,
  value,
  onChange,
}: {
  projectId: string;
  value: string[];
  onChange: (members: string[]) => void;
}) {
  const { organization } = useOrganizationOfProject(projectId);
  const members = useQuery({ ...membersQuery(organization?.organizationId ?? ''), enabled: !!organization });
  const toggle = (userId: string, on: boolean) => onChange(on ? [...value, userId] : value.filter((id) => id !== userId));
  return (
    <fieldset className="notify-members">
      <legend>Mail these members on each alert (optional)</legend>
      {members.isError && <p className="muted">The members could not be loaded; the rule can be created without mail.</p>}
      {!members.data && !members.isError && <p className="muted">Loading the members…</p>}
      {members.data?.length === 0 && <p className="muted">No members to mail.</p>}
      {members.data?.map((m) => (
        <label key={m.userId} className="checkbox">
          <input type="checkbox" checked={value.includes(m.userId)} onChange={(e) => toggle(m.userId, e.target.checked)} />
          {m.email}
        </label>
      ))}
    </fieldset>
  );
}
