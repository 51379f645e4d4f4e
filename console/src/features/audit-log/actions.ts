import type { Schemas } from '../../api/client';

type Action = Schemas['AuditLogEntry']['action'];

const ACTIONS: Record<Action, string> = {
  signup: 'Signed up',
  'email.verified': 'Verified the email',
  'session.created': 'Signed in',
  'password.changed': 'Changed the password',
  'password.reset': 'Reset the password',
  'project.created': 'Created a project',
  'project.renamed': 'Renamed a project',
  'project.archived': 'Archived a project',
  'key.created': 'Created an API key',
  'key.rotated': 'Rotated an API key',
  'key.revoked': 'Revoked an API key',
  'member.invited': 'Invited a member',
  'invitation.revoked': 'Revoked an invitation',
  'invitation.accepted': 'Accepted an invitation',
  'member.role_changed': "Changed a member's role",
  'member.removed': 'Removed a member',
  'webhooks.changed': 'Changed the webhooks',
  'schedule.created': 'Created a schedule',
  'schedule.updated': 'Changed a schedule',
  'schedule.deleted': 'Deleted a schedule',
  'alert_rule.created': 'Created an alert rule',
  'alert_rule.updated': 'Changed an alert rule',
  'alert_rule.deleted': 'Deleted an alert rule',
  'destination.created': 'Added a storage destination',
  'destination.updated': 'Changed a storage destination',
  'destination.deleted': 'Deleted a storage destination',
  'user.disabled': 'Disabled a user',
  'user.enabled': 'Enabled a user',
  'plan.changed': 'Changed the plan',
  'credits.granted': 'Granted credits',
  'limits.changed': 'Changed the limits',
};

/** The action in words; an action newer than this console shows as its code. */
export const describeAction = (action: Action) => ACTIONS[action] ?? action;

/** The details in words: "from developer to admin" for a change, then the rest as "key: value" pairs (nested values as JSON). */
export function describeDetails(details: Record<string, unknown>): string {
  const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  const { from, to, ...rest } = details;
  const change = from !== undefined && to !== undefined ? [`from ${text(from)} to ${text(to)}`] : [];
  const others = Object.entries(from !== undefined && to !== undefined ? rest : details).map(([key, value]) => `${key}: ${text(value)}`);
  return [...change, ...others].join(', ');
}
