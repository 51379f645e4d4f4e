import { type Harness, startHarness } from '../../test-support/harness';
import { signIn, signUp } from '../../test-support/accounts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

describe('the user’s sessions', () => {
  it('lists only the user’s live sessions, the current one marked, never a token', async () => {
    const ada = await signUp(h);
    const other = await h
      .agent()
      .post('/v1/account/sessions')
      .set('User-Agent', FIREFOX)
      .send({ email: ada.email, password: 'correct horse battery' });
    expect(other.status).toBe(201);
    const stranger = await signUp(h);

    const res = await ada.agent.get('/v1/account/sessions');
    expect(res.status).toBe(200);
    const list = res.body.data as Array<Record<string, unknown>>;
    expect(list).toHaveLength(2);
    expect(list.filter((s) => s.current)).toHaveLength(1);
    expect(list.find((s) => !s.current)).toMatchObject({ device: 'Firefox on Linux' });
    expect(Object.keys(list[0]!).sort()).toEqual(['createdAt', 'current', 'device', 'expiresAt', 'id', 'lastSeenAt']);
    const strangers = (await stranger.agent.get('/v1/account/sessions')).body.data as Array<{ id: string }>;
    expect(strangers).toHaveLength(1);
    expect(strangers.map((s) => s.id)).not.toContain(list[0]!.id);
  });

  it('ends one of the user’s own sessions; another user’s id is a 404 and that session keeps working', async () => {
    const ada = await signUp(h);
    const second = await signIn(h, ada.email);
    const bob = await signUp(h);
    const bobs = (await bob.agent.get('/v1/account/sessions')).body.data as Array<{ id: string }>;
    const adas = (await ada.agent.get('/v1/account/sessions')).body.data as Array<{ id: string; current: boolean }>;
    const otherOfAda = adas.find((s) => !s.current)!;

    const foreign = await ada.agent.delete(`/v1/account/sessions/${bobs[0]!.id}`).set(ada.csrf);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    expect((await bob.agent.get('/v1/account/me')).status).toBe(200);
    expect((await ada.agent.delete('/v1/account/sessions/ses_nope').set(ada.csrf)).status).toBe(404);

    // no CSRF token, no change
    expect((await ada.agent.delete(`/v1/account/sessions/${otherOfAda.id}`)).status).toBe(403);
    expect((await second.agent.get('/v1/account/me')).status).toBe(200);

    const ended = await ada.agent.delete(`/v1/account/sessions/${otherOfAda.id}`).set(ada.csrf);
    expect(ended.status).toBe(204);
    expect((await second.agent.get('/v1/account/me')).status).toBe(401);
    expect((await ada.agent.get('/v1/account/me')).status).toBe(200);
    expect((await ada.agent.delete(`/v1/account/sessions/${otherOfAda.id}`).set(ada.csrf)).status).toBe(404);
    const left = (await ada.agent.get('/v1/account/sessions')).body.data as unknown[];
    expect(left).toHaveLength(1);
  });

  it('sign out everywhere ends every session of the user, this one included, and no one else’s', async () => {
    const ada = await signUp(h);
    const second = await signIn(h, ada.email);
    const bob = await signUp(h);
    expect((await ada.agent.delete('/v1/account/sessions')).status).toBe(403);
    expect((await second.agent.get('/v1/account/me')).status).toBe(200);
    const res = await ada.agent.delete('/v1/account/sessions').set(ada.csrf);
    expect(res.status).toBe(204);
    expect(String(res.headers['set-cookie'])).toMatch(/cds_session=;/);
    expect((await ada.agent.get('/v1/account/me')).status).toBe(401);
    expect((await second.agent.get('/v1/account/me')).status).toBe(401);
    expect((await bob.agent.get('/v1/account/me')).status).toBe(200);
  });
});
