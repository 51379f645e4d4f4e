import type {
  AlertRuleRepository,
  DestinationRepository,
  ApiKeyRepository,
  JobRepository,
  KeyRecord,
  MembershipRepository,
  ProjectRecord,
  ProjectRepository,
  ScheduleRepository,
  SessionRepository,
  SessionRow,
  UserMembership,
} from '@crawl/db';
import type { Logger } from '@crawl/observability';
import type { Broadcast } from '@crawl/redis';
import { LastSeenRecorder } from './last-seen';
import { TaggedCache } from './tagged-cache';

/** A live console session as authentication sees it. */
export interface SessionRecord extends SessionRow {
  memberships: UserMembership[];
}

export interface DirectoryOptions {
  /** How long a gateway trusts what it looked up (AUTH_CACHE_TTL_MS); changes are also pushed to every gateway. */
  ttlMs: number;
  projects: ProjectRepository;
  keys: ApiKeyRepository;
  sessions: SessionRepository;
  memberships: MembershipRepository;
  jobs: JobRepository;
  schedules: ScheduleRepository;
  alertRules: AlertRuleRepository;
  destinations: DestinationRepository;
  broadcast: Broadcast;
  log: Logger;
}

/**
 * Who is who, cached: API keys, console sessions with their memberships, projects with their
 * organization's plan, and which project a job or schedule belongs to. Every request is
 * authenticated, and without these caches each would cost Postgres one to three round trips.
 *
 * A change (a key revoked, a member removed, a session signed out) calls `changed(tags)`: this
 * gateway forgets the tagged entries at once, and a Redis broadcast makes every other gateway
 * forget them too. The TTL only bounds what a lost broadcast could leave behind
 * (docs/accounts.md, "Caches and revocation").
 */
export class Directory {
  private readonly keyCache: TaggedCache<KeyRecord>;
  private readonly sessionCache: TaggedCache<SessionRecord>;
  private readonly projectCache: TaggedCache<ProjectRecord>;
  /** A job or schedule never moves to another project: its project is cached for long. */
  private readonly ownerCache = new TaggedCache<string>(10 * 60_000, 50_000);
  readonly keyUse: LastSeenRecorder;
  readonly sessionUse: LastSeenRecorder;

  constructor(private readonly options: DirectoryOptions) {
    this.keyCache = new TaggedCache(options.ttlMs);
    this.sessionCache = new TaggedCache(options.ttlMs);
    this.projectCache = new TaggedCache(options.ttlMs);
    this.keyUse = new LastSeenRecorder('api keys', (used) => options.keys.touchLastUsed(used), options.log);
    this.sessionUse = new LastSeenRecorder('sessions', (seen) => options.sessions.touch(seen), options.log);
  }

  /** Listens for other gateways' changes. */
  async start(): Promise<void> {
    await this.options.broadcast.subscribe({
      onMessage: (message) => this.forget(message.split(' ')),
      onResync: () => this.forgetAll(),
    });
  }

  async close(): Promise<void> {
    this.options.broadcast.close();
    await Promise.all([this.keyUse.flush(), this.sessionUse.flush()]);
  }

  key(keyHash: string): Promise<KeyRecord | undefined> {
    return this.keyCache.get(
      keyHash,
      () => this.options.keys.findByHash(keyHash),
      // `user:` too: disabling the owner or changing their role must reach their keys at once.
      (k) => [`key:${k.keyId}`, `user:${k.userId}`, `project:${k.projectId}`, `org:${k.organizationId}`],
    );
  }

  /** The key if this gateway has it cached, without a lookup: what `key` would answer at once. */
  cachedKey(keyHash: string): KeyRecord | undefined {
    return this.keyCache.peek(keyHash);
  }

  session(tokenHash: string): Promise<SessionRecord | undefined> {
    return this.sessionCache.get(
      tokenHash,
      async () => {
        const session = await this.options.sessions.findLive(tokenHash);
        return session && { ...session, memberships: await this.options.memberships.ofUser(session.userId) };
      },
      (s) => [`session:${s.id}`, `user:${s.userId}`, ...s.memberships.map((m) => `org:${m.organizationId}`)],
    );
  }

  project(projectId: string): Promise<ProjectRecord | undefined> {
    return this.projectCache.get(
      projectId,
      () => this.options.projects.findRecord(projectId),
      (p) => [`project:${p.projectId}`, `org:${p.organizationId}`],
    );
  }

  projectOfJob(jobId: string): Promise<string | undefined> {
    return this.ownerCache.get(
      `job:${jobId}`,
      () => this.options.jobs.projectOf(jobId),
      () => [],
    );
  }

  projectOfSchedule(scheduleId: string): Promise<string | undefined> {
    return this.ownerCache.get(
      `schedule:${scheduleId}`,
      () => this.options.schedules.projectOf(scheduleId),
      () => [],
    );
  }

  projectOfAlertRule(ruleId: string): Promise<string | undefined> {
    return this.ownerCache.get(
      `alert_rule:${ruleId}`,
      () => this.options.alertRules.projectOf(ruleId),
      () => [],
    );
  }

  projectOfDestination(destinationId: string): Promise<string | undefined> {
    return this.ownerCache.get(
      `destination:${destinationId}`,
      () => this.options.destinations.projectOf(destinationId),
      () => [],
    );
  }

  /**
   * After a change is committed: forget here, then tell every gateway. A broadcast that fails
   * (Redis down) is logged; the other gateways then catch up within the TTL.
   */
  async changed(tags: string[]): Promise<void> {
    if (!tags.length) return;
    this.forget(tags);
    await this.options.broadcast
      .publish(tags.join(' '))
      .catch((err) => this.options.log.warn({ err, tags: tags.length }, 'could not broadcast an account change to the other gateways'));
  }

  private forget(tags: string[]): void {
    for (const tag of tags) {
      this.keyCache.forget(tag);
      this.sessionCache.forget(tag);
      this.projectCache.forget(tag);
    }
  }

  private forgetAll(): void {
    this.keyCache.clear();
    this.sessionCache.clear();
    this.projectCache.clear();
  }
}
