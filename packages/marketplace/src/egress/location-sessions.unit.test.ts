import type { Exit } from './exits';
import { LocationSessions, sessionBytes } from './location-sessions';
import { createSession, destroySession } from './sessions';

const exits: Exit[] = [0, 1].map((i) => ({
  spec: { key: `exit-${i}`, label: `exit-${i}`, proxy: null, rps: 1, maxInFlight: 0 },
  session: createSession(i, null),
  refusals: 0,
  failures: 0,
}));
afterAll(() => exits.forEach((e) => destroySession(e.session)));

const codes = (n: number, from = 10_000) => Array.from({ length: n }, (_, i) => String(from + i));

describe('LocationSessions', () => {
  it('keeps one session per (exit, marketplace, postal code), with its own cookie jar on the exit agents', () => {
    const s = new LocationSessions({ max: 8, perTenant: 8, idleMs: 60_000 });
    const a = s.get(exits[0]!, 'US', '10001', 't1');
    expect(s.get(exits[0]!, 'US', '10001', 't2')).toBe(a);
    expect(s.get(exits[1]!, 'US', '10001', 't1')).not.toBe(a);
    expect(s.get(exits[0]!, 'CA', '10001', 't1')).not.toBe(a);
    expect(a.session.cookieJar).not.toBe(exits[0]!.session.cookieJar);
    expect(a.session.agents).toBe(exits[0]!.session.agents);
    expect(s.size).toBe(3);
  });

  it('is bounded: the least recently used session goes first', () => {
    const s = new LocationSessions({ max: 3, perTenant: 3, idleMs: 60_000 });
    const [a, b] = ['1', '2'].map((c) => s.get(exits[0]!, 'US', `1000${c}`, 't'));
    s.get(exits[0]!, 'US', '10003', 't');
    s.get(exits[0]!, 'US', '10001', 't'); // used again: 10002 is now the oldest
    s.get(exits[0]!, 'US', '10004', 't');
    expect(s.size).toBe(3);
    expect(s.has(a!)).toBe(true);
    expect(s.has(b!)).toBe(false);
  });

  it('drops sessions left idle', () => {
    const s = new LocationSessions({ max: 10, perTenant: 10, idleMs: 1_000 });
    const old = s.get(exits[0]!, 'US', '10001', 't', 0);
    s.get(exits[0]!, 'US', '10002', 't', 500);
    const fresh = s.get(exits[0]!, 'US', '10003', 't', 1_200);
    expect(s.has(old)).toBe(false);
    expect(s.has(fresh)).toBe(true);
    expect(s.size).toBe(2);
  });

  it("one tenant's many postal codes replace its own sessions, never another tenant's", () => {
    const s = new LocationSessions({ max: 12, perTenant: 4, idleMs: 60_000 });
    const others = ['a', 'b'].map((t) => s.get(exits[0]!, 'US', `2000${t === 'a' ? 1 : 2}`, t));
    for (const code of codes(100)) s.get(exits[0]!, 'US', code, 'greedy');
    expect(s.heldBy('greedy')).toBe(4);
    for (const o of others) expect(s.has(o)).toBe(true);
  });

  it("when full, the session to go is the biggest holder's oldest", () => {
    const s = new LocationSessions({ max: 6, perTenant: 4, idleMs: 60_000 });
    const mine = s.get(exits[0]!, 'US', '30001', 'small');
    for (const code of codes(4)) s.get(exits[0]!, 'US', code, 'big');
    s.get(exits[1]!, 'US', '30002', 'small2');
    s.get(exits[1]!, 'US', '30003', 'new'); // full: "big" (4) gives one up, not "small" (oldest overall)
    expect(s.has(mine)).toBe(true);
    expect(s.heldBy('big')).toBe(3);
    expect(s.size).toBe(6);
  });

  it('forgets every session of a refused exit, and a dropped session is made again on demand', () => {
    const s = new LocationSessions({ max: 10, perTenant: 10, idleMs: 60_000 });
    const a = s.get(exits[0]!, 'US', '10001', 't');
    const b = s.get(exits[1]!, 'US', '10001', 't');
    s.dropExit('exit-0');
    expect(s.has(a)).toBe(false);
    expect(s.has(b)).toBe(true);
    expect(s.get(exits[0]!, 'US', '10001', 't')).not.toBe(a);
    expect(s.heldBy('t')).toBe(2);
  });

  it("counts each session's setup once, by outcome, whichever of its pages reports it; and the mismatches", () => {
    const s = new LocationSessions({ max: 10, perTenant: 10, idleMs: 60_000 });
    const a = s.get(exits[0]!, 'US', '10001', 't');
    s.settled(a, { ok: true });
    s.settled(a, { ok: true }); // another page that waited for the same setup
    s.mismatched();
    s.drop(a);
    const again = s.get(exits[0]!, 'US', '10001', 't');
    s.settled(again, { ok: false, refused: true, detail: 'not updated' });
    s.settled(s.get(exits[1]!, 'US', '10001', 't'), { ok: false, refused: false, code: 'BLOCKED', detail: 'robot check', retryable: true });
    s.settled(s.get(exits[1]!, 'US', '10002', 't'), {
      ok: false,
      refused: false,
      code: 'UPSTREAM_ERROR',
      detail: 'no token',
      retryable: true,
    });
    expect(s.stats()).toMatchObject({ live: 3, setups: { ok: 1, refused: 1, blocked: 1, upstream_error: 1 }, mismatches: 1 });
  });

  it("estimates the sessions' heap from their cookies: ten Amazon-like cookies about 7 KB a session, as measured", () => {
    const s = new LocationSessions({ max: 10, perTenant: 10, idleMs: 60_000 });
    const empty = s.get(exits[0]!, 'US', '10001', 't');
    const full = s.get(exits[0]!, 'US', '10002', 't');
    const cookies = [
      'session-id=131-4567890-1234567',
      'session-id-time=2082787201l',
      'i18n-prefs=USD',
      'ubid-main=134-1234567-7654321',
      'sp-cdn="L5Z9:US"',
      'skin=noskin',
      'lc-main=en_US',
      `session-token=${'x'.repeat(300)}`,
      'csm-hit=tb:s-ABCDEFGHIJKLMNOPQRST|1700000000000&t:1700000000000&adb:adblk_no',
      `x-main="${'y'.repeat(60)}"`,
    ];
    for (const c of cookies) full.session.cookieJar.setCookieSync(`${c}; Domain=.amazon.com; Path=/`, 'https://www.amazon.com/');
    expect(sessionBytes(empty.session)).toBe(1_536);
    expect(sessionBytes(full.session)).toBeGreaterThan(6_000);
    expect(sessionBytes(full.session)).toBeLessThan(9_000);
    expect(s.stats().bytes).toBe(sessionBytes(empty.session) + sessionBytes(full.session));
    // the bound: 256 such sessions, about 2 MB
    expect((256 * sessionBytes(full.session)) / 2 ** 20).toBeLessThan(2.2);
  });
});
