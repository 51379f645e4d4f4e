import { z } from './openapi-zod';
import { PLANS } from './domain';
import { rateLimitInForceSchema } from './account-responses';

/**
 * Self-serve accounts (docs/accounts.md): roles, what each may do, and the response bodies of
 * the account API. One definition, used by the gateway's checks and mappers, the OpenAPI
 * document and, through it, the SDK and the console.
 */

export const ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const KEY_SCOPES = ['full', 'read'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/**
 * What a member may do in an organization; each account route and the project API check one.
 * `GET /account/me` lists a member's permissions with each membership, so the console decides
 * what to offer from them rather than from role names.
 */
export const PERMISSIONS = [
  /** The organization, its projects, members and usage. */
  'organization.read',
  /** Create, rename and archive projects. */
  'projects.manage',
  /** Invite, change and remove members below owner. */
  'members.manage',
  /** Make, change or remove owners. */
  'owners.manage',
  /** See the keys one created and revoke them (a demoted member can still stop their old keys). */
  'keys.mine',
  /** Create keys, and rotate the keys one created. */
  'keys.own',
  /** List, rotate and revoke every key of the organization. */
  'keys.all',
  /** Writes of the project API: jobs, schedules, tracking, webhooks. */
  'data.write',
  /** Read the organization's audit log. */
  'audit.read',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const VIEWER: Permission[] = ['organization.read', 'keys.mine'];
const DEVELOPER: Permission[] = [...VIEWER, 'keys.own', 'data.write'];
const ADMIN: Permission[] = [...DEVELOPER, 'projects.manage', 'members.manage', 'keys.all', 'audit.read'];
const OWNER: Permission[] = [...ADMIN, 'owners.manage'];

const ROLE_PERMISSIONS: Record<Role, ReadonlySet<Permission>> = {
  owner: new Set(OWNER),
  admin: new Set(ADMIN),
  developer: new Set(DEVELOPER),
  viewer: new Set(VIEWER),
};

export function roleAllows(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].has(permission);
}

/** Every permission of a role, in the order of PERMISSIONS (what `GET /account/me` lists per membership). */
export function permissionsOf(role: Role): Permission[] {
  return PERMISSIONS.filter((p) => ROLE_PERMISSIONS[role].has(p));
}

/** A key's creator as the key's organization knows them now. */
export interface KeyOwnerStanding {
  scope: KeyScope;
  /** The creator's current role in the key's organization; null when they have no membership there. */
  ownerRole: Role | null;
  /** An account user (an email or a password); users made by the admin CLI have neither, and no membership. */
  ownerSignsIn: boolean;
}

/**
 * What a key may do now: the lesser of its scope and its creator's current role in the key's
 * organization, so a demotion reaches the keys made before it. A user made by the admin CLI has
 * no membership: its key has its own scope. null: an account user who is no longer a member, whose
 * keys are refused (removal revokes them; this fails closed anyway).
 */
export function effectiveKeyScope(key: KeyOwnerStanding): KeyScope | null {
  if (key.ownerRole) return key.scope === 'full' && roleAllows(key.ownerRole, 'data.write') ? 'full' : 'read';
  return key.ownerSignsIn ? null : key.scope;
}

/** Passwords: at least 10 characters (and at most 256, so hashing a body cannot be made expensive). */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

const isoTimestamp = z.string().datetime();
const role = z.enum(ROLES);

export const accountUserSchema = z.object({ id: z.string(), email: z.string() }).strict().openapi('AccountUser');

export const membershipSchema = z
  .object({
    organizationId: z.string(),
    organizationName: z.string(),
    role,
    permissions: z
      .array(z.enum(PERMISSIONS))
      .describe(
        "What the role allows in this organization (each account route and the project API check one); decide what to offer from these, not from the role's name",
      ),
  })
  .strict()
  .openapi('Membership');

export const sessionSchema = z
  .object({
    user: accountUserSchema,
    csrfToken: z.string().describe('Send it as `X-CSRF-Token` on every write made with this session'),
  })
  .strict()
  .openapi('Session');

export const meSchema = z
  .object({ user: accountUserSchema, memberships: z.array(membershipSchema), csrfToken: z.string() })
  .strict()
  .openapi('Me');

export const organizationSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    plan: z.enum(PLANS),
    creditBalance: z.number().int(),
    rateLimit: rateLimitInForceSchema,
    role: role.describe("The signed-in user's role in it"),
  })
  .strict()
  .openapi('Organization');

export const projectSchema = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    name: z.string(),
    createdAt: isoTimestamp,
    archivedAt: isoTimestamp.nullable().describe('Archived projects keep their data readable; their keys are revoked'),
  })
  .strict()
  .openapi('Project');

export const memberSchema = z.object({ userId: z.string(), email: z.string(), role, joinedAt: isoTimestamp }).strict().openapi('Member');

export const invitationSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    role,
    expiresAt: isoTimestamp,
    createdAt: isoTimestamp,
    invitedBy: z.string().nullable().describe("The inviter's user id"),
  })
  .strict()
  .openapi('Invitation');

export const apiKeySchema = z
  .object({
    id: z.string(),
    projectId: z.string(),
    label: z.string(),
    prefix: z.string().describe('The first characters of the key (`cds_1a2b3c4d`): how to recognize it without the secret'),
    scope: z.enum(KEY_SCOPES).describe('`read`: GET requests only'),
    effectiveScope: z
      .enum(KEY_SCOPES)
      .describe(
        "What the key may do now: `read` when its scope is `read` or its creator's current role may not write (a viewer); a key acts with the lesser of its scope and its creator's role",
      ),
    createdAt: isoTimestamp,
    createdBy: z.string().describe("Id of the user who created it (the key's owner)"),
    createdByEmail: z.string().nullable().describe('Their email; null for keys made by an operator'),
    lastUsedAt: isoTimestamp.nullable().describe('Updated at most once a minute'),
    expiresAt: isoTimestamp.nullable(),
    revokedAt: isoTimestamp
      .nullable()
      .describe('When it stopped or stops working (a rotated key: the end of the overlap, possibly in the future)'),
  })
  .strict()
  .openapi('ApiKey');

// A new object rather than `.extend`: the document would render an extension as allOf.
export const createdApiKeySchema = z
  .object({ ...apiKeySchema.shape, secret: z.string().describe('The key itself: shown this once, stored only as a hash') })
  .strict()
  .openapi('CreatedApiKey');

export const keyMeSchema = z
  .object({
    keyId: z.string(),
    label: z.string(),
    scope: z.enum(KEY_SCOPES),
    effectiveScope: z
      .enum(KEY_SCOPES)
      .describe("The lesser of `scope` and the key's owner's current role: `read` once the owner is a viewer"),
    projectId: z.string(),
    organizationId: z.string(),
    userId: z.string(),
  })
  .strict()
  .openapi('KeyIdentity');

export const AUDIT_ACTIONS = [
  'signup',
  'email.verified',
  'session.created',
  'password.changed',
  'password.reset',
  'project.created',
  'project.renamed',
  'project.archived',
  'key.created',
  'key.rotated',
  'key.revoked',
  'member.invited',
  'invitation.revoked',
  'invitation.accepted',
  'member.role_changed',
  'member.removed',
  // project configuration changed through the project API (a key or a session)
  'webhooks.changed',
  'schedule.created',
  'schedule.updated',
  'schedule.deleted',
  'alert_rule.created',
  'alert_rule.updated',
  'alert_rule.deleted',
  'destination.created',
  'destination.updated',
  'destination.deleted',
  // the operator, through the admin CLI (actor null)
  'user.disabled',
  'user.enabled',
  'plan.changed',
  'credits.granted',
  'limits.changed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const auditLogEntrySchema = z
  .object({
    id: z.string(),
    action: z.enum(AUDIT_ACTIONS),
    actorType: z
      .enum(['user', 'operator'])
      .describe(
        '`user`: a user of the organization did it, signed in or with one of their API keys (`actor` says who); `operator`: the service operator did it with the admin CLI (plans, credits, limits, disabling a user), and `actor` is null',
      ),
    actor: z
      .object({ userId: z.string(), email: z.string().nullable() })
      .strict()
      .nullable()
      .describe('Who did it; null when done by an operator'),
    subject: z
      .object({ type: z.string(), id: z.string() })
      .strict()
      .nullable()
      .describe('What it was done to (a project, key, user, invitation or schedule)'),
    details: z
      .record(z.unknown())
      .describe(
        "What changed (a role, a label, a name; for webhooks each configuration's id, URL origin, event and whether its secret changed; for schedules the cron, `enabled` and what changed), and `keyId` when done with an API key; never a secret",
      ),
    clientAddress: z.string().nullable(),
    createdAt: isoTimestamp,
  })
  .strict()
  .openapi('AuditLogEntry');

export type AccountUserResource = z.infer<typeof accountUserSchema>;
export type MembershipResource = z.infer<typeof membershipSchema>;
export type OrganizationResource = z.infer<typeof organizationSchema>;
export type ProjectResource = z.infer<typeof projectSchema>;
export type MemberResource = z.infer<typeof memberSchema>;
export type InvitationResource = z.infer<typeof invitationSchema>;
export type ApiKeyResource = z.infer<typeof apiKeySchema>;
export type CreatedApiKeyResource = z.infer<typeof createdApiKeySchema>;
export type KeyMeResource = z.infer<typeof keyMeSchema>;
export type AuditLogEntryResource = z.infer<typeof auditLogEntrySchema>;
