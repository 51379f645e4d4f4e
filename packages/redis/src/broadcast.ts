import type { Redis } from 'ioredis';

/**
 * The channel on which account changes (space-separated tags: `key:ID`, `user:ID`, `org:ID`,
 * `project:ID`) reach every gateway's caches; the gateways and the admin CLI both publish on it.
 */
export const accountChangesChannel = (queuePrefix: string): string => `${queuePrefix}:account-changes`;

/**
 * A message to every process subscribed to `channel` (Redis pub/sub), for caches that must
 * forget an entry everywhere at once: a revoked key, a signed-out session.
 *
 * Pub/sub keeps nothing: a subscriber that was disconnected missed what was sent meanwhile, so
 * `onResync` runs after every (re)subscription and the subscriber drops everything it holds.
 */
export class Broadcast {
  private subscriber: Redis | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly channel: string,
  ) {}

  /** Resolves once the message reached Redis; a Redis that is down is the caller's error. */
  async publish(message: string): Promise<void> {
    await this.redis.publish(this.channel, message);
  }

  /** Starts listening on a connection of its own (a subscribed connection can do nothing else). */
  async subscribe(handlers: { onMessage(message: string): void; onResync(): void }): Promise<void> {
    const subscriber = this.redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
    this.subscriber = subscriber;
    subscriber.on('error', () => undefined);
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) handlers.onMessage(message);
    });
    // ioredis re-subscribes by itself after a reconnect; what was published in between is lost.
    subscriber.on('ready', () => handlers.onResync());
    await subscriber.subscribe(this.channel);
  }

  close(): void {
    this.subscriber?.disconnect();
    this.subscriber = null;
  }
}
