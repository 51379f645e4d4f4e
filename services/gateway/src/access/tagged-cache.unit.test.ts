import { TaggedCache } from './tagged-cache';

describe('TaggedCache', () => {
  let now = 0;
  const cache = () => new TaggedCache<string>(1_000, 3, () => now);
  beforeEach(() => (now = 0));

  it('serves a value until its TTL, and does not cache misses', async () => {
    const c = cache();
    let loads = 0;
    const load = async () => (++loads, 'v');
    expect(await c.get('a', load, () => ['t'])).toBe('v');
    expect(await c.get('a', load, () => ['t'])).toBe('v');
    expect(loads).toBe(1);
    now = 1_001;
    await c.get('a', load, () => ['t']);
    expect(loads).toBe(2);
    let misses = 0;
    await c.get(
      'b',
      async () => (++misses, undefined),
      () => [],
    );
    await c.get(
      'b',
      async () => (++misses, undefined),
      () => [],
    );
    expect(misses).toBe(2);
  });

  it('forgets every entry of a tag, and only those', async () => {
    const c = cache();
    await c.get(
      'k1',
      async () => 'one',
      () => ['org:1', 'key:1'],
    );
    await c.get(
      'k2',
      async () => 'two',
      () => ['org:1', 'key:2'],
    );
    await c.get(
      'k3',
      async () => 'three',
      () => ['org:2'],
    );
    c.forget('key:1');
    expect(c.peek('k1')).toBeUndefined();
    expect(c.peek('k2')).toBe('two');
    c.forget('org:1');
    expect(c.peek('k2')).toBeUndefined();
    expect(c.peek('k3')).toBe('three');
  });

  it('a value loaded across a forget is not stored: the change wins', async () => {
    const c = cache();
    let release!: () => void;
    const loading = c.get(
      'k',
      () => new Promise<string>((resolve) => (release = () => resolve('stale'))),
      () => ['key:1'],
    );
    c.forget('key:1');
    release();
    expect(await loading).toBe('stale');
    expect(c.peek('k')).toBeUndefined();
  });

  it('keeps at most maxEntries, dropping the oldest', async () => {
    const c = cache();
    for (const k of ['a', 'b', 'c', 'd'])
      await c.get(
        k,
        async () => k,
        () => [],
      );
    expect(c.peek('a')).toBeUndefined();
    expect(c.peek('d')).toBe('d');
  });

  it('with a TTL of 0 always loads', async () => {
    const c = new TaggedCache<string>(0);
    let loads = 0;
    await c.get(
      'a',
      async () => (++loads, 'v'),
      () => [],
    );
    await c.get(
      'a',
      async () => (++loads, 'v'),
      () => [],
    );
    expect(loads).toBe(2);
  });
});
