import { ROLES } from '@crawl/core';
import { z } from 'zod';
import { intQueryParam } from '../../validation';
import { displayName, email, token, password } from '../account/account.schemas';

export const ProjectBody = z.object({ name: displayName }).strict().openapi('ProjectBody');
export const InvitationBody = z
  .object({ email, role: z.enum(ROLES) })
  .strict()
  .openapi('InvitationBody');
export const RoleBody = z
  .object({ role: z.enum(ROLES) })
  .strict()
  .openapi('RoleBody');
export const AcceptInvitationBody = z
  .object({ token, password: password.optional().describe('Only when not signed in: the password of the account the invitation creates') })
  .strict()
  .openapi('AcceptInvitationBody');
export const auditLogQuery = z.object({ limit: intQueryParam(1, 200, 50), offset: intQueryParam(0, 1_000_000, 0) }).strict();
