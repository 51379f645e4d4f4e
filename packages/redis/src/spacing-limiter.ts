import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Picks, in one round trip, the first of several resources (proxy exits) that may send a request
 * now, and books it. Each resource has a minimum spacing between requests (GCRA with a burst of
 * one: a request is allowed when the resource's next allowed time has passed, and moves it on by
 * the interval), an optional cap on requests in flight (leases that expire, so a crashed process
 * never leaks one), and a cooldown that rests it entirely. An optional ceiling spaces requests
 * over all resources together. The clock is Redis's (TIME), so workers on several machines agree.
 *
 * KEYS: fleet, then per resource: next-allowed, cooldown, leases.
 * ARGV: count, fleet interval (0 = off), lease id, lease ms, then per resource: interval, max in flight (0 = no cap).
 * Returns {index (1-based), 0} when a resource was booked, else {0, ms to wait} ({-1, ms} when the fleet ceiling holds).
 */
const PICK = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = tonumber(ARGV[1])
local fleetInterval = tonumber(ARGV[2])
local leaseId = ARGV[3]
local leaseMs = tonumber(ARGV[4])
if fleetInterval > 0 then
  local fleetNext = tonumber(redis.call('GET', KEYS[1]) or '0')
  if fleetNext > now then return {-1, fleetNext - now} end
end
local wait = 60000
for i = 1, n do
  local nextKey, coolKey, leaseKey = KEYS[3 * i - 1], KEYS[3 * i], KEYS[3 * i + 1]
  local interval = tonumber(ARGV[3 + 2 * i])
  local cap = tonumber(ARGV[4 + 2 * i])
  local cool = redis.call('PTTL', coolKey)
  if cool > 0 then
    if cool < wait then wait = cool end
  else
    local nextAt = tonumber(redis.call('GET', nextKey) or '0')
    if nextAt > now then
      if nextAt - now < wait then wait = nextAt - now end
    else
      local free = true
      if cap > 0 then
        redis.call('ZREMRANGEBYSCORE', leaseKey, '-inf', now)
        if redis.call('ZCARD', leaseKey) >= cap then
          free = false
          if wait > 25 then wait = 25 end
        end
      end
      if free then
        redis.call('SET', nextKey, now + interval, 'PX', interval + 1000)
        if cap > 0 then
          redis.call('ZADD', leaseKey, now + leaseMs, leaseId)
          redis.call('PEXPIRE', leaseKey, leaseMs * 2)
        end
        if fleetInterval > 0 then redis.call('SET', KEYS[1], now + fleetInterval, 'PX', fleetInterval + 1000) end
        return {i, 0}
      end
    end
  end
end
return {0, wait}`;

/** Sets a cooldown unless a longer one is already running. */
const COOL = `
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end
return 1`;

type WithCommands = Redis & {
  spacedPick?: (...args: (string | number)[]) => Promise<[number, number]>;
  spacedCool?: (key: string, ms: string) => Promise<number>;
};

export interface SpacedResource {
  /** Stable identity of the resource (an exit), unique within the scope. */
  key: string;
  /** Minimum milliseconds between two requests through it. */
  intervalMs: number;
  /** Requests in flight through it at once, over all processes; 0 = no cap. */
  maxInFlight: number;
}

export type SpacedPick = { index: number; release(): Promise<void> } | { waitMs: number };

export class SpacingLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    const r = redis as WithCommands;
    if (!r.spacedPick) r.defineCommand('spacedPick', { lua: PICK });
    if (!r.spacedCool) r.defineCommand('spacedCool', { numberOfKeys: 1, lua: COOL });
  }

  private key(scope: string, kind: string, resource?: string): string {
    return `${this.prefix}:spacing:${scope}:${kind}${resource === undefined ? '' : `:${resource}`}`;
  }

  /**
   * Books the first resource of `resources` (in the given order) that may send now.
   * `fleetIntervalMs` > 0 spaces requests over all of them; `leaseMs` bounds a lease of a capped resource.
   */
  async pick(scope: string, resources: SpacedResource[], options: { fleetIntervalMs: number; leaseMs: number }): Promise<SpacedPick> {
    const keys = [this.key(scope, 'fleet')];
    const args: (string | number)[] = [];
    const leaseId = randomBytes(8).toString('hex');
    for (const r of resources) {
      keys.push(this.key(scope, 'next', r.key), this.key(scope, 'cool', r.key), this.key(scope, 'leases', r.key));
      args.push(Math.max(1, Math.round(r.intervalMs)), r.maxInFlight);
    }
    const [index, waitMs] = await (this.redis as WithCommands).spacedPick!(
      keys.length,
      ...keys,
      resources.length,
      Math.round(options.fleetIntervalMs),
      leaseId,
      options.leaseMs,
      ...args,
    );
    if (index <= 0) return { waitMs: Math.max(1, waitMs) };
    const picked = resources[index - 1]!;
    const leases = this.key(scope, 'leases', picked.key);
    return {
      index: index - 1,
      release: async () => {
        if (picked.maxInFlight > 0) await this.redis.zrem(leases, leaseId);
      },
    };
  }

  /** Rests a resource for `ms` in every process (a longer running cooldown is kept). */
  async coolDown(scope: string, resource: string, ms: number): Promise<void> {
    await (this.redis as WithCommands).spacedCool!(this.key(scope, 'cool', resource), String(Math.max(1, Math.round(ms))));
  }
}
