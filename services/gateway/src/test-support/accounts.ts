import type { Role } from '@crawl/core';
import { type MailKind, readOutbox } from '@crawl/mail';
import type supertest from 'supertest';
import type { Harness } from './harness';

export type Agent = ReturnType<typeof supertest.agent>;

export interface SignedIn {
  agent: Agent;
  /** The X-CSRF-Token header of the session. */
  csrf: Record<string, string>;
  userId: string;
  email: string;
  password: string;
  organizationId: string;
  projectId: string;
}

let counter = 0;
export const uniqueEmail = (name = 'user') => `${name}.${process.pid}.${Date.now()}.${++counter}@example.com`;
export const PASSWORD = 'correct horse battery';

/** The newest mail to `to` of `kind`, waiting for it: account mail is sent after the answer. */
export async function mailTo(outboxDir: string, to: string, kind: MailKind, count = 1) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const mails = await readOutbox(outboxDir, { to, kind });
    if (mails.length >= count) return mails[mails.length - 1]!;
    if (Date.now() > deadline) throw new Error(`no ${kind} mail to ${to} (found ${mails.length}, waited for ${count})`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The token of a console link (`.../verify-email?token=...`). */
export const tokenOf = (link: string | undefined): string => new URL(link!).searchParams.get('token')!;

/** Signs up, verifies through the mailed link, and signs in: a user who owns a new organization with its Default project. */
export async function signUp(h: Harness, options: { email?: string; organizationName?: string } = {}): Promise<SignedIn> {
  const email = options.email ?? uniqueEmail();
  const signup = await h.http
    .post('/v1/account/signup')
    .send({ email, password: PASSWORD, organizationName: options.organizationName ?? 'Acme' });
  if (signup.status !== 202) throw new Error(`sign-up answered ${signup.status}: ${JSON.stringify(signup.body)}`);
  const mail = await mailTo(h.outboxDir, email, 'verify-email');
  const verified = await h.http.post('/v1/account/email-verification').send({ token: tokenOf(mail.link) });
  if (verified.status !== 200) throw new Error(`verification answered ${verified.status}`);
  return signIn(h, email);
}

export async function signIn(h: Harness, email: string, password = PASSWORD): Promise<SignedIn> {
  const agent = h.agent();
  const session = await agent.post('/v1/account/sessions').send({ email, password });
  if (session.status !== 201) throw new Error(`sign-in answered ${session.status}: ${JSON.stringify(session.body)}`);
  const csrf = { 'X-CSRF-Token': session.body.data.csrfToken as string };
  const me = await agent.get('/v1/account/me');
  const organizationId = me.body.data.memberships[0]?.organizationId as string;
  const projects = organizationId ? await agent.get(`/v1/account/organizations/${organizationId}/projects`) : undefined;
  return {
    agent,
    csrf,
    userId: session.body.data.user.id,
    email,
    password,
    organizationId,
    projectId: projects?.body.data[0]?.id,
  };
}

/** A signed-in user made directly as a member of `organizationId` with `role` (no sign-up mail). */
export async function member(h: Harness, organizationId: string, role: Role): Promise<SignedIn> {
  const { accounts } = h.deps;
  const email = uniqueEmail(role);
  const userId = await accounts.users.create({ email, passwordHash: await accounts.hasher.hash(PASSWORD), organizationId, verified: true });
  await accounts.memberships.add({ organizationId, userId, role });
  // a gateway with a long cache TTL learns of the new membership at once
  await h.deps.directory.changed([`user:${userId}`]);
  return signIn(h, email);
}
