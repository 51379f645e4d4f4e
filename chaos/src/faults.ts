/**
 * The fault timeline: SIGKILL of a random worker every 20 s (restarted 1-2 s later), and a
 * cycle of single faults (gateway kill, Redis restart without persistence, simulator 503 for
 * 10 s, Postgres paused 5 s, webhooks service kill), repeated every 150 s on long runs.
 */
import type { PrivatePostgres, PrivateRedis } from './infra';
import { sleep } from './infra';
import type { ManagedProcess } from './procs';

export interface FaultWindow {
  fault: string;
  from: number;
  to: number;
}

export interface FaultDeps {
  workers: ManagedProcess[];
  gateways: ManagedProcess[];
  webhooks: ManagedProcess[];
  redis: PrivateRedis;
  postgres: PrivatePostgres;
  simulatorUrl: string;
  baselineFaults: unknown[];
  log: (line: string) => void;
  /** Fires keyed creations at a gateway, so that the kill finds requests in flight. */
  burst: (gateway: number) => void;
}

const pick = <T>(xs: T[]): T => xs[Math.floor(Math.random() * xs.length)]!;

async function putFaults(url: string, rules: unknown[]): Promise<void> {
  const res = await fetch(`${url}/__sim/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(rules),
    signal: AbortSignal.timeout(5_000),
  });
  if (!res.ok) throw new Error(`PUT /__sim/faults answered ${res.status}: ${await res.text()}`);
}

export { putFaults };

interface TimedFault {
  at: number;
  name: string;
  run: () => Promise<string>;
}

export class FaultTimeline {
  readonly windows: FaultWindow[] = [];
  private stopped = false;
  private gatewayTurn = 0;

  constructor(private readonly deps: FaultDeps) {}

  stop(): void {
    this.stopped = true;
  }

  /** The events of a run of `durationS` seconds of load, in time order. */
  plan(durationS: number): TimedFault[] {
    const d = this.deps;
    const events: TimedFault[] = [];
    for (let t = 10; t < durationS - 5; t += 20) {
      events.push({ at: t, name: 'SIGKILL worker', run: () => this.restart(pick(d.workers), 1_000 + Math.random() * 1_000) });
    }
    // Redis is wiped early in a cycle: jobs whose fan-out was lost stay idle for the
    // reconciler's stall threshold (60 s) before they are restarted.
    const cycle: [number, string, () => Promise<string>][] = [
      [12, 'SIGKILL gateway', () => this.killGateway()],
      [22, 'Redis restart, data lost', () => this.redisRestart()],
      [35, 'simulator 503 for 10 s', () => this.simulatorOutage(10_000)],
      [52, 'Postgres paused 5 s', () => this.postgresPause(5_000)],
      [65, 'SIGKILL webhooks service', () => this.restart(pick(d.webhooks), 1_500)],
    ];
    for (let offset = 0; offset === 0 || offset + 70 < durationS - 40; offset += 150) {
      for (const [at, name, run] of cycle) if (offset + at < durationS) events.push({ at: offset + at, name, run });
    }
    return events.sort((a, b) => a.at - b.at);
  }

  /** Runs the plan from `t0`; resolves when every event ran or the timeline was stopped. */
  async run(t0: number, durationS: number): Promise<void> {
    const running: Promise<void>[] = [];
    for (const ev of this.plan(durationS)) {
      const wait = t0 + ev.at * 1000 - Date.now();
      if (wait > 0) await sleep(wait);
      if (this.stopped) break;
      const started = Date.now();
      running.push(
        ev.run().then(
          (what) => {
            this.windows.push({ fault: `${ev.name}: ${what}`, from: started, to: Date.now() });
            this.deps.log(`fault   ${ev.name}: ${what} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
          },
          (err: unknown) => this.deps.log(`fault   ${ev.name} FAILED to inject: ${(err as Error).message}`),
        ),
      );
    }
    await Promise.all(running);
  }

  private async restart(p: ManagedProcess, downMs: number): Promise<string> {
    const pid = p.pid;
    if (pid === undefined) return `${p.name} already down: skipped`;
    await p.kill('SIGKILL');
    await sleep(downMs);
    await p.start();
    return `${p.name} pid ${pid} killed, restarted as pid ${p.pid}`;
  }

  private async killGateway(): Promise<string> {
    const i = this.gatewayTurn++ % this.deps.gateways.length;
    this.deps.burst(i);
    await sleep(80);
    return `${await this.restart(this.deps.gateways[i]!, 1_500)}, 16 keyed creations sent to it just before`;
  }

  private async redisRestart(): Promise<string> {
    const pid = this.deps.redis.pid;
    await this.deps.redis.kill();
    await sleep(500);
    await this.deps.redis.start();
    return `redis pid ${pid} killed, empty redis pid ${this.deps.redis.pid} on port ${this.deps.redis.port}`;
  }

  private async simulatorOutage(ms: number): Promise<string> {
    await putFaults(this.deps.simulatorUrl, [{ fault: { kind: 'status', status: 503 } }]);
    await sleep(ms);
    await putFaults(this.deps.simulatorUrl, this.deps.baselineFaults);
    return 'every request answered 503, then the baseline fault mix again';
  }

  private async postgresPause(ms: number): Promise<string> {
    const pids = this.deps.postgres.pause();
    await sleep(ms);
    this.deps.postgres.resume(pids);
    return `SIGSTOP/SIGCONT of ${pids.length} postgres processes`;
  }
}
