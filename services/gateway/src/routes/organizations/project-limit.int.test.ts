import { adminDeps, commands } from '@crawl/cli';
import { AppError } from '@crawl/core';
import { sql } from '@crawl/db';
import { type SignedIn, signUp } from '../../test-support/accounts';
import { type Harness, startHarness } from '../../test-support/harness';

/** Live projects per organization: 10 on starter (a new organization's plan), raised by the operator. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const admin = (command: string, flags: Record<string, string | undefined>) => commands[command]!(adminDeps(h.deps.db), flags);

const createProject = (owner: SignedIn, name: string) =>
  owner.agent.post(`/v1/account/organizations/${owner.organizationId}/projects`).set(owner.csrf).send({ name });

const liveProjects = async (organizationId: string) =>
  Number(
    (
      await sql<{
        n: string;
      }>`select count(*) as n from project where organization_id = ${organizationId} and archived_at is null`.execute(h.deps.db)
    ).rows[0]!.n,
  );

/** Projects straight in the database up to `total` live ones (the limit's own path is what is tested). */
async function fillTo(owner: SignedIn, total: number): Promise<void> {
  const missing = total - (await liveProjects(owner.organizationId));
  for (let i = 0; i < missing; i++) await h.deps.projects.create({ organizationId: owner.organizationId, name: `filler ${i}` });
}

it('a starter organization holds 10 live projects; the 11th is 409 naming the limit and the ways out; archiving makes room', async () => {
  const owner = await signUp(h); // its Default project is the first
  for (let i = 2; i <= 10; i++) expect((await createProject(owner, `p${i}`)).status).toBe(201);
  const over = await createProject(owner, 'one too many');
  expect(over.status).toBe(409);
  expect(over.body.error.code).toBe('INVALID_STATE');
  expect(over.body.error.message).toMatch(/at most 10 live projects/);
  expect(over.body.error.message).toMatch(/archive a project/);
  expect(over.body.error.message).toMatch(/operator/);
  expect(await liveProjects(owner.organizationId)).toBe(10);

  expect((await owner.agent.delete(`/v1/account/projects/${owner.projectId}`).set(owner.csrf)).status).toBe(204);
  expect((await createProject(owner, 'room again')).status).toBe(201);
  expect(await liveProjects(owner.organizationId)).toBe(10);
});

it('concurrent creates one short of the limit: exactly one passes', async () => {
  const owner = await signUp(h);
  await fillTo(owner, 9);
  const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => createProject(owner, `racer ${i}`)));
  expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
  expect(answers.filter((a) => a.status === 409)).toHaveLength(5);
  expect(await liveProjects(owner.organizationId)).toBe(10);
});

it("the operator raises the limit (set-project-limit), returns it to the plan's, and the plan's default follows the plan", async () => {
  const owner = await signUp(h);
  await fillTo(owner, 10);
  expect(await admin('set-project-limit', { org: owner.organizationId, max: '12' })).toEqual({
    organizationId: owner.organizationId,
    maxProjects: 12,
  });
  expect((await createProject(owner, 'eleventh')).status).toBe(201);
  expect((await createProject(owner, 'twelfth')).status).toBe(201);
  expect((await createProject(owner, 'thirteenth')).body.error.message).toMatch(/at most 12 live projects/);

  expect(await admin('set-project-limit', { org: owner.organizationId, max: 'default' })).toEqual({
    organizationId: owner.organizationId,
    maxProjects: null,
  });
  expect((await createProject(owner, 'back to ten')).status).toBe(409);
  await admin('set-plan', { org: owner.organizationId, plan: 'growth' }); // 50
  expect((await createProject(owner, 'growing')).status).toBe(201);

  for (const flags of [{ org: owner.organizationId }, { org: owner.organizationId, max: '0' }, { org: owner.organizationId, max: 'ten' }]) {
    await expect(admin('set-project-limit', flags)).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  }
  await expect(admin('set-project-limit', { org: 'org_missing', max: '5' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
});

it("the admin CLI's create-project --org is held to the limit too", async () => {
  const owner = await signUp(h);
  await fillTo(owner, 10);
  const refused = await admin('create-project', { name: 'by the operator', org: owner.organizationId }).catch((err: unknown) => err);
  expect(refused).toBeInstanceOf(AppError);
  expect(refused).toMatchObject({ code: 'INVALID_STATE', message: expect.stringMatching(/set-project-limit/) });
  expect(await liveProjects(owner.organizationId)).toBe(10);
  await admin('set-project-limit', { org: owner.organizationId, max: '11' });
  expect(await admin('create-project', { name: 'by the operator', org: owner.organizationId })).toMatchObject({
    organizationId: owner.organizationId,
  });
});
