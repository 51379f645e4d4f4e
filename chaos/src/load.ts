/**
 * Steady client load through both gateways: job creations (details and search, 1-20 targets,
 * some with Idempotency-Key and repeats of it), retries of failed/cancelled jobs, cancels of
 * running jobs, GET polling. Every response is recorded (status, latency, body), and every job
 * the API ACCEPTED (202) is remembered for the checks.
 */
import { randomBytes } from 'node:crypto';

export interface Tenant {
  index: number;
  organizationId: string;
  projectId: string;
  apiKey: string;
}

export interface ApiRecord {
  at: number;
  ms: number;
  gateway: number;
  tenant: number;
  method: string;
  route: string;
  status: number;
  /** Network error or client timeout (status 0). */
  error?: string;
  body: string;
}

export interface AcceptedJob {
  id: string;
  tenant: number;
  via: 'create' | 'retry' | 'replay';
  at: number;
}

/** A keyed creation whose answer was lost (network error, 503) or in progress, retried with the same key. */
export interface KeyRecovery {
  key: string;
  tenant: number;
  first: string;
  tries: number;
  outcome: 'replayed' | 'created' | 'stuck' | 'rejected';
  last: string;
  ms: number;
  jobId?: string;
  /** The request's targets (random, so they identify a job the request may have created). */
  targets: string[];
}

export interface IdemProblem {
  key: string;
  first: string;
  replayed: string;
  status: number;
}

const TIMEOUT_MS = 15_000;
const BODY_KEEP = 2_000;
const WORDS = [
  'usb c charger',
  'portable charger',
  'phone case',
  'desk lamp',
  'coffee grinder',
  'yoga mat',
  'hdmi cable',
  'water bottle',
  'wireless mouse',
  'led strip',
  'notebook',
  'hiking socks',
];
const ALNUM = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

export class ApiClient {
  readonly records: ApiRecord[] = [];
  constructor(readonly gateways: string[]) {}

  async call(
    tenant: Tenant,
    method: string,
    route: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string>; gateway?: number } = {},
  ): Promise<{ status: number; json: any; headers: Headers | null; ms: number }> {
    const gateway = options.gateway ?? Math.floor(Math.random() * this.gateways.length);
    const at = Date.now();
    const headers: Record<string, string> = { Authorization: `Bearer ${tenant.apiKey}`, ...options.headers };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    try {
      const res = await fetch(`${this.gateways[gateway]}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const text = await res.text();
      const ms = Date.now() - at;
      this.records.push({ at, ms, gateway, tenant: tenant.index, method, route, status: res.status, body: text.slice(0, BODY_KEEP) });
      let json: any = null;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        // non-JSON body: recorded as text
      }
      return { status: res.status, json, headers: res.headers, ms };
    } catch (err) {
      const ms = Date.now() - at;
      const e = err as Error & { cause?: { code?: string; message?: string } };
      const error =
        e.name === 'TimeoutError' ? `timeout after ${TIMEOUT_MS} ms` : `${e.cause?.code ?? e.name}: ${e.cause?.message ?? e.message}`;
      this.records.push({ at, ms, gateway, tenant: tenant.index, method, route, status: 0, error, body: '' });
      return { status: 0, json: null, headers: null, ms };
    }
  }
}

interface KnownJob {
  id: string;
  status: string;
  type: string;
}

interface IdemEntry {
  key: string;
  body: unknown;
  jobId: string;
}

function randomAsin(prefix = 'B0'): string {
  let s = prefix;
  while (s.length < 10) s += ALNUM[Math.floor(Math.random() * ALNUM.length)];
  return s;
}

/** 1-20 targets, skewed small. */
function targetCount(): number {
  const r = Math.random();
  if (r < 0.5) return 1 + Math.floor(Math.random() * 4);
  if (r < 0.85) return 5 + Math.floor(Math.random() * 6);
  return 11 + Math.floor(Math.random() * 10);
}

export function jobBody(): unknown {
  if (Math.random() < 0.3) {
    const n = Math.min(targetCount(), WORDS.length);
    const words = [...WORDS].sort(() => Math.random() - 0.5).slice(0, n);
    return {
      type: 'search',
      targets: words.map((w) => `${w} ${randomBytes(2).toString('hex')}`),
      config: { marketplace: 'US', lang: 'en-US' },
    };
  }
  const n = targetCount();
  // ~10 % of details jobs ask only for products that do not exist (the job fails: job.failed,
  // and a candidate for retry); ~15 % mix in one missing product.
  const r = Math.random();
  const targets = Array.from({ length: n }, () => randomAsin(r < 0.1 ? 'B0NF' : 'B0'));
  if (r >= 0.1 && r < 0.25) targets[0] = randomAsin('B0NF');
  return { type: 'details', targets, config: { marketplace: 'US' } };
}

/** One tenant's steady stream of API calls. */
export class TenantLoad {
  readonly known = new Map<string, KnownJob>();
  private readonly idem: IdemEntry[] = [];
  private stopped = false;

  constructor(
    private readonly tenant: Tenant,
    private readonly api: ApiClient,
    private readonly accepted: Map<string, AcceptedJob>,
    private readonly idemProblems: IdemProblem[],
    private readonly recoveries: KeyRecovery[],
    /** Mean time between job creations of this tenant. */
    private readonly createIntervalMs: number,
    /** Mean time between other calls (polls, cancels, retries, replays, lists) of each of two lanes. */
    private readonly intervalMs: number,
  ) {}

  stop(): void {
    this.stopped = true;
  }

  async run(): Promise<void> {
    // Lane 0 creates jobs, lanes 1-2 do everything else: one slow call (a paused Postgres)
    // delays its lane only, and the creation rate stays steady whatever the other calls cost.
    await Promise.all(
      [this.createIntervalMs, this.intervalMs, this.intervalMs].map(async (interval, lane) => {
        await new Promise((r) => setTimeout(r, Math.random() * interval));
        while (!this.stopped) {
          const started = Date.now();
          await (lane === 0 ? this.create() : this.step()).catch(() => undefined);
          const wait = interval * (0.5 + Math.random()) - (Date.now() - started);
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        }
      }),
    );
  }

  private accept(id: string, via: AcceptedJob['via'], type: string, status: string) {
    if (!this.accepted.has(id)) this.accepted.set(id, { id, tenant: this.tenant.index, via, at: Date.now() });
    if (!this.known.has(id)) this.known.set(id, { id, status, type });
  }

  private pick(filter: (j: KnownJob) => boolean): KnownJob | undefined {
    const list = [...this.known.values()].filter(filter);
    // Prefer recent jobs: they are the ones still moving.
    return list[list.length - 1 - Math.floor(Math.random() * Math.min(list.length, 10))];
  }

  private async step(): Promise<void> {
    const r = Math.random();
    if (r < 0.12) return this.repeatIdempotent();
    if (r < 0.52) return this.poll();
    if (r < 0.64) return this.cancel();
    if (r < 0.76) return this.retry();
    if (r < 0.9) return this.list();
    return this.results();
  }

  /** A keyed creation sent to one gateway (the run fires a burst of these just before killing it). */
  burstCreate(gateway: number): Promise<void> {
    return this.create(gateway, true);
  }

  private async create(gateway?: number, forceKey = false): Promise<void> {
    const body = jobBody();
    const withKey = forceKey || Math.random() < 0.4;
    const key = withKey ? `chaos-${randomBytes(8).toString('hex')}` : undefined;
    const path = `/v1/key/projects/${this.tenant.projectId}/jobs`;
    const res = await this.api.call(this.tenant, 'POST', 'POST /projects/:id/jobs', path, {
      body,
      headers: key ? { 'Idempotency-Key': key } : {},
      gateway,
    });
    if (res.status === 202 && res.json?.data?.id) {
      this.accept(res.json.data.id, 'create', res.json.data.type, res.json.data.status);
      if (key) this.idem.push({ key, body, jobId: res.json.data.id });
      return;
    }
    const retryable = res.status === 0 || res.status === 503 || (res.status === 409 && res.json?.error?.code === 'IDEMPOTENCY_IN_PROGRESS');
    if (!key || !retryable) return;
    // What a careful client does when the answer was lost: the same request with the same key,
    // backing off, until it gets an answer (the job it created, or a new one if none was).
    const startedAt = Date.now();
    const targets = (body as { targets: string[] }).targets;
    const first = res.status === 0 ? 'network error' : `${res.status} ${res.json?.error?.code ?? ''}`;
    let delay = 500;
    let tries = 0;
    let last = first;
    while (Date.now() - startedAt < 60_000) {
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 8_000);
      tries += 1;
      const again = await this.api.call(this.tenant, 'POST', 'POST /projects/:id/jobs (same key after lost answer)', path, {
        body,
        headers: { 'Idempotency-Key': key },
      });
      last = again.status === 0 ? 'network error' : `${again.status} ${again.json?.error?.code ?? ''}`;
      if (again.status === 202 && again.json?.data?.id) {
        const replayed = again.headers?.get('idempotent-replayed') === 'true';
        this.accept(again.json.data.id, 'create', again.json.data.type, again.json.data.status);
        this.idem.push({ key, body, jobId: again.json.data.id });
        this.recoveries.push({
          key,
          tenant: this.tenant.index,
          first,
          tries,
          outcome: replayed ? 'replayed' : 'created',
          last,
          ms: Date.now() - startedAt,
          jobId: again.json.data.id,
          targets,
        });
        return;
      }
      const stillRetryable =
        again.status === 0 || again.status === 503 || (again.status === 409 && again.json?.error?.code === 'IDEMPOTENCY_IN_PROGRESS');
      if (!stillRetryable) {
        this.recoveries.push({
          key,
          tenant: this.tenant.index,
          first,
          tries,
          outcome: 'rejected',
          last,
          ms: Date.now() - startedAt,
          targets,
        });
        return;
      }
    }
    this.recoveries.push({ key, tenant: this.tenant.index, first, tries, outcome: 'stuck', last, ms: Date.now() - startedAt, targets });
  }

  /** Same key, same body, possibly through the other gateway: must replay the first job. */
  private async repeatIdempotent(): Promise<void> {
    const entry = this.idem[Math.floor(Math.random() * this.idem.length)];
    if (!entry) return this.poll();
    const res = await this.api.call(
      this.tenant,
      'POST',
      'POST /projects/:id/jobs (replay)',
      `/v1/key/projects/${this.tenant.projectId}/jobs`,
      {
        body: entry.body,
        headers: { 'Idempotency-Key': entry.key },
      },
    );
    if (res.status === 202 && res.json?.data?.id) {
      if (res.json.data.id !== entry.jobId || res.headers?.get('idempotent-replayed') !== 'true') {
        this.idemProblems.push({ key: entry.key, first: entry.jobId, replayed: res.json.data.id, status: res.status });
        this.accept(res.json.data.id, 'replay', res.json.data.type, res.json.data.status);
      }
    }
  }

  private async poll(): Promise<void> {
    const job = this.pick((j) => j.status === 'queued' || j.status === 'running') ?? this.pick(() => true);
    if (!job) return;
    const res = await this.api.call(this.tenant, 'GET', 'GET /jobs/:id', `/v1/key/jobs/${job.id}`);
    if (res.status === 200 && res.json?.data) job.status = res.json.data.status;
  }

  private async cancel(): Promise<void> {
    const job = this.pick((j) => j.status === 'running') ?? this.pick((j) => j.status === 'queued');
    if (!job) return this.poll();
    const res = await this.api.call(this.tenant, 'POST', 'POST /jobs/:id/cancel', `/v1/key/jobs/${job.id}/cancel`, { body: {} });
    if (res.status === 200 && res.json?.data) job.status = res.json.data.status;
    else if (res.status === 409 && res.json?.error?.details?.status) job.status = res.json.error.details.status;
  }

  private async retry(): Promise<void> {
    let job = this.pick((j) => j.status === 'failed' || j.status === 'cancelled');
    if (!job) {
      // Find retry candidates the way a client would: list failed jobs.
      const status = Math.random() < 0.5 ? 'failed' : 'cancelled';
      const res = await this.api.call(
        this.tenant,
        'GET',
        'GET /projects/:id/jobs',
        `/v1/key/projects/${this.tenant.projectId}/jobs?status=${status}&limit=20`,
      );
      for (const j of (res.json?.data ?? []) as KnownJob[]) {
        const known = this.known.get(j.id);
        if (known) known.status = j.status;
        else this.known.set(j.id, { id: j.id, status: j.status, type: j.type });
      }
      job = this.pick((j) => j.status === 'failed' || j.status === 'cancelled');
      if (!job) return;
    }
    const withKey = Math.random() < 0.3;
    const res = await this.api.call(this.tenant, 'POST', 'POST /jobs/:id/retry', `/v1/key/jobs/${job.id}/retry`, {
      body: {},
      headers: withKey ? { 'Idempotency-Key': `chaos-retry-${randomBytes(8).toString('hex')}` } : {},
    });
    // A job is retried once by this client; later retries pick another one.
    job.status = `${job.status}-retried`;
    if (res.status === 202 && res.json?.data?.id) this.accept(res.json.data.id, 'retry', res.json.data.type, res.json.data.status);
  }

  private async list(): Promise<void> {
    const status = ['queued', 'running', 'completed', 'failed', 'cancelled'][Math.floor(Math.random() * 5)];
    const res = await this.api.call(
      this.tenant,
      'GET',
      'GET /projects/:id/jobs',
      `/v1/key/projects/${this.tenant.projectId}/jobs?status=${status}&limit=20`,
    );
    for (const j of (res.json?.data ?? []) as KnownJob[]) {
      const known = this.known.get(j.id);
      if (known && !known.status.endsWith('-retried')) known.status = j.status;
    }
  }

  private async results(): Promise<void> {
    const job = this.pick((j) => j.status === 'completed');
    if (!job) return this.poll();
    await this.api.call(this.tenant, 'GET', 'GET /jobs/:id/results', `/v1/key/jobs/${job.id}/results?limit=50&offset=0`);
  }
}

/** Creates the tenant's schedule (every 5 s, a small crawl); returns its id. */
export async function createSchedule(api: ApiClient, tenant: Tenant, body: unknown): Promise<string> {
  for (let i = 0; i < 20; i++) {
    const res = await api.call(tenant, 'POST', 'POST /projects/:id/schedules', `/v1/key/projects/${tenant.projectId}/schedules`, {
      body,
      gateway: i % 2,
    });
    if (res.status === 201) return res.json.data.id as string;
    if (res.status >= 400 && res.status < 500) throw new Error(`schedule creation answered ${res.status}: ${JSON.stringify(res.json)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('schedule creation kept failing');
}

/** Disables a schedule (kept, so that its fire history stays for the checks). */
export async function disableSchedule(api: ApiClient, tenant: Tenant, id: string): Promise<boolean> {
  for (let i = 0; i < 20; i++) {
    const res = await api.call(tenant, 'PATCH', 'PATCH /schedules/:id', `/v1/key/schedules/${id}`, {
      body: { enabled: false },
      gateway: i % 2,
    });
    if (res.status === 200) return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}
