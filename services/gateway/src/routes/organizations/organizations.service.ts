import {
  AppError,
  type AuditLogEntryResource,
  type InvitationResource,
  type MemberResource,
  type MembershipResource,
  type OrganizationResource,
  permissionsOf,
  type ProjectResource,
  projectLimit,
  rateLimitPolicy,
  type Role,
  type AuditAction,
} from '@crawl/core';
import type { AuditEntryRow, InvitationRow, ProjectRow, Transaction, Database } from '@crawl/db';
import { invitationMail } from '@crawl/mail';
import type { AccountDeps } from '../../accounts/account-deps';
import { requireRole } from '../../access/roles';
import { hashToken, isWellFormedToken, newToken } from '../../access/secrets';
import type { AccountSession } from '../../access/sessions';
import type { RequestContext } from '../account/account.service';

const INVITATION_TTL_MS = 7 * 24 * 3_600_000;

export const toProjectResource = (p: ProjectRow): ProjectResource => ({
  id: p.id,
  organizationId: p.organizationId,
  name: p.name,
  createdAt: p.createdAt.toISOString(),
  archivedAt: p.archivedAt?.toISOString() ?? null,
});

const toInvitationResource = (i: InvitationRow): InvitationResource => ({
  id: i.id,
  email: i.email,
  role: i.role,
  expiresAt: i.expiresAt.toISOString(),
  createdAt: i.createdAt.toISOString(),
  invitedBy: i.invitedBy,
});

const toAuditEntry = (e: AuditEntryRow): AuditLogEntryResource => ({
  id: String(e.id),
  action: e.action,
  actorType: e.actorUserId ? 'user' : 'operator',
  actor: e.actorUserId ? { userId: e.actorUserId, email: e.actorEmail } : null,
  subject: e.subjectType && e.subjectId ? { type: e.subjectType, id: e.subjectId } : null,
  details: e.details,
  clientAddress: e.clientAddress,
  createdAt: e.createdAt.toISOString(),
});

/** Only an owner makes, changes or removes owners (docs/accounts.md, "Roles"). */
function requireRoleChange(session: AccountSession, organizationId: string, roles: Role[]): void {
  requireRole(session, organizationId, roles.includes('owner') ? 'owners.manage' : 'members.manage');
}

/**
 * Organizations and what hangs off them: projects, members, invitations and the audit log.
 * Every change is recorded in the audit log in its own transaction, and the gateways' caches
 * are told (directory.ts) once it is committed.
 */
export class OrganizationsService {
  constructor(private readonly deps: AccountDeps) {}

  async organization(session: AccountSession, organizationId: string): Promise<OrganizationResource> {
    const role = requireRole(session, organizationId, 'organization.read');
    const org = await this.deps.organizations.find(organizationId);
    if (!org) throw new AppError('NOT_FOUND', `Organization ${organizationId} not found.`);
    return {
      id: organizationId,
      name: org.name,
      plan: org.plan,
      creditBalance: Number(org.creditBalance),
      rateLimit: rateLimitPolicy(org.plan, org.perMinuteLimit),
      role,
    };
  }

  async projects(session: AccountSession, organizationId: string): Promise<ProjectResource[]> {
    requireRole(session, organizationId, 'organization.read');
    return (await this.deps.projects.list(organizationId)).map(toProjectResource);
  }

  /**
   * A new project within the organization's live-project limit (docs/accounts.md, "Limits"),
   * judged under a lock on the organization's row: two creates cannot both take the last place.
   */
  async createProject(session: AccountSession, organizationId: string, name: string, ctx: RequestContext): Promise<ProjectResource> {
    requireRole(session, organizationId, 'projects.manage');
    const project = await this.deps.db.transaction().execute(async (trx) => {
      const room = await this.deps.projects.lockRoom(organizationId, trx);
      if (!room) throw new AppError('NOT_FOUND', `Organization ${organizationId} not found.`);
      const limit = projectLimit(room.plan, room.maxProjects);
      if (room.liveProjects >= limit) {
        throw new AppError(
          'INVALID_STATE',
          `This organization holds at most ${limit} live projects (${room.maxProjects === null ? `the ${room.plan} plan's limit` : 'its limit'}): ` +
            'archive a project it no longer needs, or ask the operator of the service to raise the limit.',
        );
      }
      const id = await this.deps.projects.create({ organizationId, name }, trx);
      await this.audit(trx, session, organizationId, 'project.created', { type: 'project', id }, ctx, { name });
      return (await this.deps.projects.find(id, trx))!;
    });
    return toProjectResource(project);
  }

  /** The project, if it belongs to one of the user's organizations and their role allows `permission`. */
  private async projectFor(session: AccountSession, projectId: string, permission: 'organization.read' | 'projects.manage') {
    const project = await this.deps.projects.find(projectId);
    if (!project) throw new AppError('NOT_FOUND', `Project ${projectId} not found.`);
    requireRole(session, project.organizationId, permission, `Project ${projectId}`);
    return project;
  }

  async renameProject(session: AccountSession, projectId: string, name: string, ctx: RequestContext): Promise<ProjectResource> {
    const project = await this.projectFor(session, projectId, 'projects.manage');
    if (project.archivedAt) throw new AppError('INVALID_STATE', 'This project is archived.');
    await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.projects.rename(projectId, name, trx);
      await this.audit(trx, session, project.organizationId, 'project.renamed', { type: 'project', id: projectId }, ctx, {
        from: project.name,
        to: name,
      });
    });
    return toProjectResource({ ...project, name });
  }

  /**
   * Archives a project: refused while its jobs run; otherwise its keys are revoked and its
   * schedules disabled at once. Its jobs, results and ledger entries stay readable.
   */
  async archiveProject(session: AccountSession, projectId: string, ctx: RequestContext): Promise<void> {
    const project = await this.projectFor(session, projectId, 'projects.manage');
    if (project.archivedAt) return;
    const keyIds = await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.projects.lock(projectId, trx);
      if (await this.deps.projects.hasActiveJobs(projectId, trx)) {
        throw new AppError(
          'INVALID_STATE',
          'This project has queued or running jobs: cancel them or wait for them to finish, then archive it.',
        );
      }
      const revoked = await this.deps.keys.revokeAllOfProject(projectId, trx);
      await this.deps.projects.archive(projectId, trx);
      await this.audit(trx, session, project.organizationId, 'project.archived', { type: 'project', id: projectId }, ctx, {
        keysRevoked: revoked.length,
      });
      return revoked;
    });
    await this.deps.directory.changed([`project:${projectId}`, ...keyIds.map((k) => `key:${k}`)]);
  }

  async members(session: AccountSession, organizationId: string): Promise<MemberResource[]> {
    requireRole(session, organizationId, 'organization.read');
    return (await this.deps.memberships.members(organizationId)).map((m) => ({ ...m, joinedAt: m.joinedAt.toISOString() }));
  }

  async invitations(session: AccountSession, organizationId: string): Promise<InvitationResource[]> {
    requireRole(session, organizationId, 'members.manage');
    return (await this.deps.invitations.pending(organizationId)).map(toInvitationResource);
  }

  /** Invites an email with a role; a pending invitation of the same email is replaced (its link stops working). */
  async invite(
    session: AccountSession,
    organizationId: string,
    input: { email: string; role: Role },
    ctx: RequestContext,
  ): Promise<InvitationResource> {
    requireRoleChange(session, organizationId, [input.role]);
    // before the mail limits: an invitation refused here uses up none of the recipient's mails
    await this.deps.invitationThrottle.allow(organizationId, session.userId);
    // an invitation is a mail to any address: the same limits as the anonymous mail routes
    if (!(await this.deps.mailThrottle.allow(ctx.clientAddress ?? 'unknown', input.email))) {
      throw new AppError('RATE_LIMITED', `${input.email} was sent too many mails in the last hour; invite again later.`, {
        details: { retryAfterSeconds: 3_600 },
      });
    }
    const members = await this.deps.memberships.members(organizationId);
    if (members.some((m) => m.email.toLowerCase() === input.email))
      throw new AppError('INVALID_STATE', `${input.email} is already a member.`);
    const org = await this.deps.organizations.find(organizationId);
    const token = newToken();
    const invitation = await this.deps.db.transaction().execute(async (trx) => {
      const earlier = (await this.deps.invitations.pending(organizationId)).filter((i) => i.email === input.email);
      for (const old of earlier) await this.deps.invitations.revoke(organizationId, old.id, trx);
      const created = await this.deps.invitations.create(
        {
          organizationId,
          email: input.email,
          role: input.role,
          tokenHash: hashToken(token),
          invitedBy: session.userId,
          expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
        },
        trx,
      );
      await this.audit(trx, session, organizationId, 'member.invited', { type: 'invitation', id: created.id }, ctx, {
        email: input.email,
        role: input.role,
      });
      return created;
    });
    this.deps.mail.send(
      invitationMail(this.deps.mailLinks, {
        to: input.email,
        token,
        organizationName: org?.name ?? organizationId,
        inviterEmail: session.email,
        role: input.role,
        expiresAt: invitation.expiresAt,
      }),
    );
    return toInvitationResource(invitation);
  }

  async revokeInvitation(session: AccountSession, organizationId: string, invitationId: string, ctx: RequestContext): Promise<void> {
    requireRole(session, organizationId, 'members.manage');
    await this.deps.db.transaction().execute(async (trx) => {
      const revoked = await this.deps.invitations.revoke(organizationId, invitationId, trx);
      if (!revoked) throw new AppError('NOT_FOUND', `Invitation ${invitationId} not found or no longer pending.`);
      requireRoleChange(session, organizationId, [revoked.role]);
      await this.audit(trx, session, organizationId, 'invitation.revoked', { type: 'invitation', id: invitationId }, ctx, {
        email: revoked.email,
      });
    });
  }

  /**
   * Accepts an invitation: signed in (the invitation must be for the user's email), or as a new
   * user with a password (the mailed link proves the address, so the user starts verified).
   */
  async acceptInvitation(
    session: AccountSession | undefined,
    input: { token: string; password?: string },
    ctx: RequestContext,
  ): Promise<MembershipResource> {
    if (!isWellFormedToken(input.token)) throw new AppError('INVALID_TOKEN', 'This invitation link is invalid, used or expired.');
    if (!session && input.password === undefined) {
      throw new AppError('UNAUTHORIZED', 'Sign in to accept this invitation, or send a password to create your account with it.');
    }
    const passwordHash = session ? undefined : await this.deps.hasher.hash(input.password!);
    const accepted = await this.deps.db.transaction().execute(async (trx) => {
      const invitation = await this.deps.invitations.accept(hashToken(input.token), trx);
      if (!invitation) throw new AppError('INVALID_TOKEN', 'This invitation link is invalid, used or expired.');
      let userId: string;
      if (session) {
        if (session.email.toLowerCase() !== invitation.email.toLowerCase()) {
          throw new AppError('FORBIDDEN', 'This invitation is for another email address than the one you are signed in with.');
        }
        userId = session.userId;
      } else {
        if (await this.deps.users.findByEmail(invitation.email, trx)) {
          throw new AppError('INVALID_STATE', 'An account with this email exists: sign in, then accept the invitation.');
        }
        userId = await this.deps.users.create(
          { email: invitation.email, passwordHash: passwordHash!, organizationId: invitation.organizationId, verified: true },
          trx,
        );
      }
      if (await this.deps.memberships.roleOf(invitation.organizationId, userId, trx)) {
        throw new AppError('INVALID_STATE', 'You are already a member of this organization.');
      }
      await this.deps.memberships.add({ organizationId: invitation.organizationId, userId, role: invitation.role }, trx);
      await this.deps.audit.record(
        {
          organizationId: invitation.organizationId,
          actorUserId: userId,
          action: 'invitation.accepted',
          subject: { type: 'invitation', id: invitation.id },
          details: { role: invitation.role },
          clientAddress: ctx.clientAddress,
        },
        trx,
      );
      return { invitation, userId };
    });
    await this.deps.directory.changed([`user:${accepted.userId}`]);
    const org = await this.deps.organizations.find(accepted.invitation.organizationId);
    return {
      organizationId: accepted.invitation.organizationId,
      organizationName: org?.name ?? '',
      role: accepted.invitation.role,
      permissions: permissionsOf(accepted.invitation.role),
    };
  }

  async changeRole(
    session: AccountSession,
    organizationId: string,
    userId: string,
    role: Role,
    ctx: RequestContext,
  ): Promise<MemberResource> {
    requireRole(session, organizationId, 'members.manage');
    const member = await this.deps.db.transaction().execute(async (trx) => {
      const owners = await this.deps.memberships.lockOwners(organizationId, trx);
      const current = await this.deps.memberships.roleOf(organizationId, userId, trx);
      if (!current) throw new AppError('NOT_FOUND', `Member ${userId} not found.`);
      requireRoleChange(session, organizationId, [current, role]);
      if (current === 'owner' && role !== 'owner' && owners.length === 1) {
        throw new AppError('INVALID_STATE', 'An organization keeps at least one owner: make another member owner first.');
      }
      await this.deps.memberships.setRole(organizationId, userId, role, trx);
      await this.audit(trx, session, organizationId, 'member.role_changed', { type: 'user', id: userId }, ctx, { from: current, to: role });
      return (await this.deps.memberships.members(organizationId)).find((m) => m.userId === userId);
    });
    await this.deps.directory.changed([`user:${userId}`]);
    if (!member) throw new AppError('NOT_FOUND', `Member ${userId} not found.`);
    return { ...member, role, joinedAt: member.joinedAt.toISOString() };
  }

  /**
   * Removes a member (or the user leaves: any role may remove itself). The keys they own in the
   * organization's projects are revoked with them: a departed colleague's key must stop working.
   */
  async removeMember(session: AccountSession, organizationId: string, userId: string, ctx: RequestContext): Promise<void> {
    requireRole(session, organizationId, userId === session.userId ? 'organization.read' : 'members.manage');
    const keyIds = await this.deps.db.transaction().execute(async (trx) => {
      const owners = await this.deps.memberships.lockOwners(organizationId, trx);
      const current = await this.deps.memberships.roleOf(organizationId, userId, trx);
      if (!current) throw new AppError('NOT_FOUND', `Member ${userId} not found.`);
      if (userId !== session.userId) requireRoleChange(session, organizationId, [current]);
      if (current === 'owner' && owners.length === 1) {
        throw new AppError('INVALID_STATE', 'An organization keeps at least one owner: make another member owner first.');
      }
      await this.deps.memberships.remove(organizationId, userId, trx);
      const revoked = await this.deps.keys.revokeAllOfMember(organizationId, userId, trx);
      await this.audit(trx, session, organizationId, 'member.removed', { type: 'user', id: userId }, ctx, {
        role: current,
        keysRevoked: revoked.length,
      });
      return revoked;
    });
    await this.deps.directory.changed([`user:${userId}`, ...keyIds.map((k) => `key:${k}`)]);
  }

  async auditLog(session: AccountSession, organizationId: string, limit: number, offset: number) {
    requireRole(session, organizationId, 'audit.read');
    const { rows, total } = await this.deps.audit.page(organizationId, limit, offset);
    return { data: rows.map(toAuditEntry), pagination: { total, limit, offset, hasMore: offset + rows.length < total } };
  }

  private audit(
    trx: Transaction<Database>,
    session: AccountSession,
    organizationId: string,
    action: AuditAction,
    subject: { type: string; id: string },
    ctx: RequestContext,
    details: Record<string, unknown> = {},
  ) {
    return this.deps.audit.record(
      { organizationId, actorUserId: session.userId, action, subject, details, clientAddress: ctx.clientAddress },
      trx,
    );
  }
}
