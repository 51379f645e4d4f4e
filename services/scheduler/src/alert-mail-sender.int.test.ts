import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { newId } from '@crawl/core';
import { AlertMailRepository, AlertStateRepository, createDb, type Db, sql } from '@crawl/db';
import { createMailer, DEFAULT_MAIL_LIMITS, MailThrottle, readOutbox } from '@crawl/mail';
import { createLogger } from '@crawl/observability';
import { buildProject, openTestQueue, openTestStore, type TestQueue, type TestStore } from '@crawl/testing';
import { AlertMailSender, DEFAULT_ALERT_MAIL_SETTINGS } from './alert-mail-sender';

let store: TestStore;
let db: Db;
let queue: TestQueue;
let outbox: string;
const log = createLogger({ level: 'silent', service: 'alert-mail-test' });
const opened: Db[] = [];

beforeAll(async () => {
  store = await openTestStore();
  ({ db } = store);
  queue = openTestQueue('alert-mail');
});
beforeEach(async () => {
  outbox = await mkdtemp(path.join(os.tmpdir(), 'alert-mail-'));
});
afterEach(() => rm(outbox, { recursive: true, force: true }));
afterAll(async () => {
  await Promise.all(opened.map((d) => d.destroy()));
  await queue.close();
  await store.close();
});

/** One sender as a process of its own would build it: its own pool, mailer and throttle. */
function sender(ownPool = false): AlertMailSender {
  const pool = ownPool ? createDb({ url: store.database.url, poolSize: 4 }) : db;
  if (ownPool) opened.push(pool);
  return new AlertMailSender({
    mails: new AlertMailRepository(pool),
    mailer: createMailer({ outboxDir: outbox, from: 'Alerts <alerts@localhost>', log, logLinks: false }),
    throttle: new MailThrottle(queue.redis, `${queue.prefix}:mail`, DEFAULT_MAIL_LIMITS),
    links: { publicUrl: 'https://crawl.example' },
    log,
    settings: DEFAULT_ALERT_MAIL_SETTINGS,
  });
}

async function user(organizationId: string, state: { verified?: boolean; disabled?: boolean; member?: boolean } = {}) {
  const id = newId('usr');
  const email = `${id}@example.com`;
  await sql`insert into app_user (id, organization_id, email, email_verified_at, disabled_at)
    values (${id}, ${organizationId}, ${email}, ${state.verified === false ? null : new Date()}, ${state.disabled ? new Date() : null})`.execute(
    db,
  );
  if (state.member !== false)
    await sql`insert into membership (organization_id, user_id, role) values (${organizationId}, ${id}, 'viewer')`.execute(db);
  return { id, email };
}

/** An alert and its queued mails, written the way the tracking transaction writes them. */
async function alertWithMails(projectId: string, userIds: string[], postalCode = '') {
  const alertId = newId('alt');
  await sql`insert into alert (id, project_id, rule_id, rule_name, status, marketplace, asin, postal_code, condition, value, previous, job_id, snapshot)
    values (${alertId}, ${projectId}, ${newId('alr')}, ${'Headphones <under> $25'}, 'sent', 'US', 'B0DR8G428S', ${postalCode},
      ${JSON.stringify({ type: 'price_below', value: 25 })}, '24.99', '29.99', ${newId('job')}, '{}')`.execute(db);
  await db.transaction().execute((trx) =>
    new AlertStateRepository().queueMails(
      trx,
      projectId,
      userIds.map((userId) => ({ alertId, userId })),
    ),
  );
  return alertId;
}

async function mailRows(alertId: string) {
  const rows = await sql<{ user_id: string; status: string; attempts: number }>`
    select user_id, status, attempts from alert_mail where alert_id = ${alertId} order by user_id`.execute(db);
  return Object.fromEntries(rows.rows.map((r) => [r.user_id, { status: r.status, attempts: r.attempts }]));
}

it('sends one mail per verified member, none to an unverified, disabled or departed one, and a second sender sends nothing again', async () => {
  const tenant = await buildProject(db);
  const [ada, grace] = [await user(tenant.organizationId), await user(tenant.organizationId)];
  const unverified = await user(tenant.organizationId, { verified: false });
  const disabled = await user(tenant.organizationId, { disabled: true });
  const departed = await user(tenant.organizationId, { member: false });
  const alertId = await alertWithMails(tenant.projectId, [ada.id, grace.id, unverified.id, disabled.id, departed.id], '10001');

  // two processes at once: each row is claimed by one of them
  const [first, second] = [sender(true), sender(true)];
  await Promise.all([first.drain(), second.drain()]);
  await second.drain();
  await Promise.all([first.close(), second.close()]);

  const mails = await readOutbox(outbox, { kind: 'alert' });
  expect(mails.map((m) => m.to).sort()).toEqual([ada.email, grace.email].sort());
  const mail = mails[0]!;
  expect(mail.subject).toBe('Alert: Headphones <under> $25 (B0DR8G428S)');
  expect(mail.text).toContain('Your alert rule "Headphones <under> $25" fired for product B0DR8G428S (US, postal code 10001).');
  expect(mail.text).toContain('Value: 24.99\nBefore: 29.99');
  expect(mail.link).toBe(
    `https://crawl.example/console/projects/${tenant.projectId}/tracking?asin=B0DR8G428S&marketplace=US&postalCode=10001`,
  );
  expect(mail.html).toContain('Headphones &lt;under&gt; $25');
  expect(mail.html).not.toContain('<under>');

  expect(await mailRows(alertId)).toEqual({
    [ada.id]: { status: 'sent', attempts: 1 },
    [grace.id]: { status: 'sent', attempts: 1 },
    [unverified.id]: { status: 'skipped', attempts: 1 },
    [disabled.id]: { status: 'skipped', attempts: 1 },
    [departed.id]: { status: 'skipped', attempts: 1 },
  });

  // a later process finds nothing pending
  const third = sender(true);
  await third.drain();
  await third.close();
  expect(await readOutbox(outbox, { kind: 'alert' })).toHaveLength(2);
});

it('skips a row another process holds, and sends it once that process is gone without committing', async () => {
  const tenant = await buildProject(db);
  const ada = await user(tenant.organizationId);
  const alertId = await alertWithMails(tenant.projectId, [ada.id]);
  const other = createDb({ url: store.database.url, poolSize: 1 });
  opened.push(other);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let claimed!: () => void;
  const isClaimed = new Promise<void>((resolve) => (claimed = resolve));
  // a process that claimed the row and dies before its commit
  const dying = new AlertMailRepository(other)
    .sendNextDue(async () => {
      claimed();
      await held;
      throw new Error('killed');
    })
    .catch(() => undefined);
  await isClaimed;

  const mails = sender();
  await mails.drain();
  expect(await readOutbox(outbox, { kind: 'alert' })).toHaveLength(0);
  release();
  await dying;
  await mails.drain();
  await mails.close();
  expect((await readOutbox(outbox, { kind: 'alert' })).map((m) => m.to)).toEqual([ada.email]);
  expect((await mailRows(alertId))[ada.id]).toEqual({ status: 'sent', attempts: 1 });
});

it("skips a mail past the recipient's hourly budget instead of retrying it, and retries a failed send later", async () => {
  const tenant = await buildProject(db);
  const ada = await user(tenant.organizationId);
  const throttle = new MailThrottle(queue.redis, `${queue.prefix}:mail`, DEFAULT_MAIL_LIMITS);
  for (let i = 0; i < DEFAULT_MAIL_LIMITS.perEmailPerHour; i += 1) expect(await throttle.mayMail(ada.email, 'alert')).toBe(true);
  const alertId = await alertWithMails(tenant.projectId, [ada.id]);
  const mails = sender();
  await mails.drain();
  expect((await mailRows(alertId))[ada.id]).toEqual({ status: 'skipped', attempts: 1 });
  expect(await readOutbox(outbox, { kind: 'alert' })).toHaveLength(0);
  // the account lanes keep their own budget: a password reset still gets through
  expect(await throttle.mayMail(ada.email, 'anonymous')).toBe(true);

  const grace = await user(tenant.organizationId);
  const failing = new AlertMailSender({
    mails: new AlertMailRepository(db),
    mailer: { send: () => Promise.reject(new Error('SMTP down')), close: () => Promise.resolve() },
    throttle,
    links: { publicUrl: 'https://crawl.example' },
    log,
    settings: { ...DEFAULT_ALERT_MAIL_SETTINGS, maxAttempts: 2 },
  });
  const second = await alertWithMails(tenant.projectId, [grace.id]);
  await failing.drain();
  const [retry] = (
    await sql<{ status: string; attempts: number; later: boolean }>`
    select status, attempts, next_attempt_at > now() + interval '30 seconds' as later from alert_mail where alert_id = ${second}`.execute(
      db,
    )
  ).rows;
  expect(retry).toEqual({ status: 'pending', attempts: 1, later: true });
  await sql`update alert_mail set next_attempt_at = now() where alert_id = ${second}`.execute(db);
  await failing.drain();
  expect((await mailRows(second))[grace.id]).toEqual({ status: 'failed', attempts: 2 });
  await mails.close();
});
