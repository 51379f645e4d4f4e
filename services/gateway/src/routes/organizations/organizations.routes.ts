import {
  auditLogEntrySchema as AuditLogEntry,
  invitationSchema as Invitation,
  memberSchema as Member,
  membershipSchema as Membership,
  organizationSchema as Organization,
  PLAN_PROJECT_LIMITS_TEXT,
  projectSchema as Project,
} from '@crawl/core';
import { z } from 'zod';
import { sessionOf } from '../../access/account-guards';
import { CSRF_HEADER, requireCsrf } from '../../access/sessions';
import { emptyBody } from '../schedules/schedules.schemas';
import { context } from '../account/account.routes';
import { data, list } from '../operation';
import { parseOrThrow } from '../../validation';
import { type Resource, routesOf } from '../route';
import { AcceptInvitationBody, auditLogQuery, InvitationBody, ProjectBody, RoleBody } from './organizations.schemas';
import { OrganizationsService } from './organizations.service';

const route = routesOf<OrganizationsService>();
const param = (value: string | string[] | undefined) => String(value);
const items = (schema: z.ZodTypeAny) => data(z.array(schema));

/** An organization, its projects, members, invitations and audit log (docs/accounts.md). */
export const organizationsRoutes = [
  route({
    method: 'get',
    path: '/v1/account/organizations/{orgId}',
    operationId: 'getOrganization',
    access: 'session',
    tag: 'Organizations',
    summary: 'Get an organization',
    description: 'Name, plan, credit balance and rate limit, and your role in it.',
    status: 200,
    response: data(Organization),
    errors: [404],
    handler: async ({ req, service }) => {
      return { status: 200, body: { data: await service.organization(sessionOf(req), param(req.params.orgId)) } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/account/organizations/{orgId}/projects',
    operationId: 'listProjects',
    access: 'session',
    tag: 'Organizations',
    summary: 'List projects',
    description: "The organization's projects, archived ones included (with `archivedAt`), oldest first.",
    status: 200,
    response: items(Project),
    errors: [404],
    handler: async ({ req, service }) => {
      return { status: 200, body: { data: await service.projects(sessionOf(req), param(req.params.orgId)) } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/account/organizations/{orgId}/projects',
    operationId: 'createProject',
    access: 'session',
    tag: 'Organizations',
    summary: 'Create a project',
    description: `Owners and admins. An organization holds a limited number of live (not archived) projects: its plan's (${PLAN_PROJECT_LIMITS_TEXT}) unless the operator set another; beyond it \`409 INVALID_STATE\` (archive a project, or ask the operator).`,
    body: ProjectBody,
    status: 201,
    response: data(Project),
    errors: [403, 404, 409],
    handler: async ({ req, service, body }) => {
      return {
        status: 201,
        body: { data: await service.createProject(sessionOf(req), param(req.params.orgId), body().name, context(req)) },
      };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/account/projects/{projectId}',
    operationId: 'renameProject',
    access: 'session',
    tag: 'Organizations',
    summary: 'Rename a project',
    description: 'Owners and admins.',
    body: ProjectBody,
    status: 200,
    response: data(Project),
    errors: [403, 404, 409],
    handler: async ({ req, service, body }) => {
      return {
        status: 200,
        body: { data: await service.renameProject(sessionOf(req), param(req.params.projectId), body().name, context(req)) },
      };
    },
  }),
  route({
    method: 'delete',
    path: '/v1/account/projects/{projectId}',
    operationId: 'archiveProject',
    access: 'session',
    tag: 'Organizations',
    summary: 'Archive a project',
    description:
      'Owners and admins. `409 INVALID_STATE` while its jobs are queued or running; otherwise its keys are revoked, its schedules disabled, and it is archived. Its jobs, results and ledger entries stay readable.',
    status: 204,
    responseDescription: 'Archived',
    errors: [403, 404, 409],
    handler: async ({ req, service }) => {
      parseOrThrow(emptyBody, req.body, 'body');
      await service.archiveProject(sessionOf(req), param(req.params.projectId), context(req));
      return { status: 204 };
    },
  }),
  route({
    method: 'get',
    path: '/v1/account/organizations/{orgId}/members',
    operationId: 'listMembers',
    access: 'session',
    tag: 'Organizations',
    summary: 'List members',
    description: 'Every member with their role, in the order they joined.',
    status: 200,
    response: items(Member),
    errors: [404],
    handler: async ({ req, service }) => {
      return { status: 200, body: { data: await service.members(sessionOf(req), param(req.params.orgId)) } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/account/organizations/{orgId}/members/{userId}',
    operationId: 'updateMemberRole',
    access: 'session',
    tag: 'Organizations',
    summary: "Change a member's role",
    description: 'Owners change any role; admins every role but owner. Demoting the last owner is `409 INVALID_STATE`.',
    body: RoleBody,
    status: 200,
    response: data(Member),
    errors: [403, 404, 409],
    handler: async ({ req, service, body }) => {
      const { orgId, userId } = req.params;
      return {
        status: 200,
        body: { data: await service.changeRole(sessionOf(req), param(orgId), param(userId), body().role, context(req)) },
      };
    },
  }),
  route({
    method: 'delete',
    path: '/v1/account/organizations/{orgId}/members/{userId}',
    operationId: 'removeMember',
    access: 'session',
    tag: 'Organizations',
    summary: 'Remove a member',
    description:
      "Owners remove anyone, admins anyone but owners, and every member may leave (remove themselves). The keys the member created in the organization's projects are revoked. Removing the last owner is `409 INVALID_STATE`.",
    status: 204,
    responseDescription: 'Removed',
    errors: [403, 404, 409],
    handler: async ({ req, service }) => {
      parseOrThrow(emptyBody, req.body, 'body');
      await service.removeMember(sessionOf(req), param(req.params.orgId), param(req.params.userId), context(req));
      return { status: 204 };
    },
  }),
  route({
    method: 'get',
    path: '/v1/account/organizations/{orgId}/invitations',
    operationId: 'listInvitations',
    access: 'session',
    tag: 'Organizations',
    summary: 'List pending invitations',
    description: 'Invitations not accepted, revoked or expired yet. Owners and admins.',
    status: 200,
    response: items(Invitation),
    errors: [403, 404],
    handler: async ({ req, service }) => {
      return { status: 200, body: { data: await service.invitations(sessionOf(req), param(req.params.orgId)) } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/account/organizations/{orgId}/invitations',
    operationId: 'createInvitation',
    access: 'session',
    tag: 'Organizations',
    summary: 'Invite a member',
    description:
      'Mails a link valid 7 days. Owners invite any role, admins any but owner. A pending invitation of the same email is replaced; a member already in is `409 INVALID_STATE`. An organization sends at most 50 invitations an hour and a user at most 20 (in all their organizations), then `429 RATE_LIMITED` naming the limit; `503` while these limits cannot be checked.',
    body: InvitationBody,
    status: 201,
    response: data(Invitation),
    errors: [403, 404, 409],
    handler: async ({ req, service, body }) => {
      return { status: 201, body: { data: await service.invite(sessionOf(req), param(req.params.orgId), body(), context(req)) } };
    },
  }),
  route({
    method: 'delete',
    path: '/v1/account/organizations/{orgId}/invitations/{invitationId}',
    operationId: 'revokeInvitation',
    access: 'session',
    tag: 'Organizations',
    summary: 'Revoke an invitation',
    description: 'Its link stops working. Owners and admins.',
    status: 204,
    responseDescription: 'Revoked',
    errors: [403, 404],
    handler: async ({ req, service }) => {
      parseOrThrow(emptyBody, req.body, 'body');
      await service.revokeInvitation(sessionOf(req), param(req.params.orgId), param(req.params.invitationId), context(req));
      return { status: 204 };
    },
  }),
  route({
    method: 'post',
    path: '/v1/account/invitations/accept',
    operationId: 'acceptInvitation',
    access: 'anonymous',
    tag: 'Organizations',
    summary: 'Accept an invitation',
    description: `Signed in (cookie and \`${CSRF_HEADER}\`), \`{token}\` adds the organization to your memberships; the invitation must be for your email. Not signed in, \`{token, password}\` creates your account, verified by the mail itself. A bad, used or expired token is \`400 INVALID_TOKEN\`.`,
    body: AcceptInvitationBody,
    status: 200,
    response: data(Membership),
    errors: [401, 403, 409],
    handler: async ({ req, service, body }) => {
      const input = body();
      const session = input.password === undefined ? req.account : undefined;
      if (session) requireCsrf(req, session);
      return { status: 200, body: { data: await service.acceptInvitation(session, input, context(req)) } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/account/organizations/{orgId}/audit-log',
    operationId: 'listAuditLog',
    access: 'session',
    tag: 'Organizations',
    summary: 'Read the audit log',
    description:
      "Account changes (sign-ins, keys, members, invitations, projects, passwords), the projects' webhook and schedule changes, and the operator's changes, with who made them (`actorType`), when and from which address, newest first. Owners and admins.",
    query: auditLogQuery,
    status: 200,
    response: list(AuditLogEntry),
    errors: [403, 404],
    handler: async ({ req, service, query }) => {
      const { limit, offset } = query();
      return { status: 200, body: await service.auditLog(sessionOf(req), param(req.params.orgId), limit, offset) };
    },
  }),
];

export const organizationsResource: Resource<OrganizationsService> = {
  routes: organizationsRoutes,
  service: (ctx) => new OrganizationsService(ctx.accounts),
};
