import { PasswordHasher } from './passwords';

describe('PasswordHasher', () => {
  it('verifies what it hashed, and an unknown account against its decoy', async () => {
    const hasher = new PasswordHasher({ maxConcurrent: 2, maxQueued: 4 });
    const stored = await hasher.hash('correct horse battery');
    expect(await hasher.verify(stored, 'correct horse battery')).toBe(true);
    expect(await hasher.verify(stored, 'wrong horse battery')).toBe(false);
    expect(await hasher.verify(undefined, 'correct horse battery')).toBe(false);
  });

  it('sheds anonymous hashes beyond its queue with 503, serves known browsers first and work after the answer last', async () => {
    const hasher = new PasswordHasher({ maxConcurrent: 1, maxQueued: 1 });
    const order: string[] = [];
    const track = (name: string, lane: 'trusted' | 'anonymous' | 'background') =>
      hasher.hash(`password of ${name}`, lane).then(() => order.push(name));
    const running = track('first', 'anonymous');
    const queued = track('queued', 'anonymous');
    await expect(hasher.hash('one too many', 'anonymous')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(hasher.hasRoom()).toBe(false);
    const later = track('background', 'background');
    const known = track('trusted', 'trusted');
    await Promise.all([running, queued, later, known]);
    expect(order).toEqual(['first', 'trusted', 'queued', 'background']);
    expect(hasher.hasRoom()).toBe(true);
  });
});
