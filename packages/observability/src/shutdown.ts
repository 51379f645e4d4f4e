import type { Logger } from './logger';

type Phase = 'intake' | 'drain' | 'producers' | 'connections';
const ORDER: Phase[] = ['intake', 'drain', 'producers', 'connections'];

/**
 * Ordered shutdown: stop intake, drain work, close producers, then pools. A force-exit
 * deadline below a container's usual 30 s grace period makes sure a stuck close never
 * leaves a zombie process behind.
 */
export class ShutdownRegistry {
  private readonly hooks = new Map<Phase, { name: string; fn: () => Promise<unknown> | unknown }[]>();
  private running: Promise<void> | null = null;

  constructor(
    private readonly log: Logger,
    private deadlineMs = 25_000,
  ) {}

  /** Raises the force-exit deadline to at least `ms` (a service whose drain has a configured grace). */
  requireDeadline(ms: number): void {
    this.deadlineMs = Math.max(this.deadlineMs, ms);
  }

  add(phase: Phase, name: string, fn: () => Promise<unknown> | unknown): void {
    const list = this.hooks.get(phase) ?? [];
    list.push({ name, fn });
    this.hooks.set(phase, list);
  }

  /** Runs every hook once, in phase order; later calls return the same promise. */
  run(reason: string): Promise<void> {
    if (this.running) return this.running;
    this.log.info({ reason }, 'shutting down');
    const timer = setTimeout(() => {
      this.log.error('shutdown deadline exceeded, forcing exit');
      process.exit(1);
    }, this.deadlineMs);
    timer.unref();
    this.running = (async () => {
      for (const phase of ORDER) {
        await Promise.all(
          (this.hooks.get(phase) ?? []).map(async ({ name, fn }) => {
            try {
              await fn();
            } catch (err) {
              this.log.warn({ err, hook: name }, 'shutdown hook failed');
            }
          }),
        );
      }
      clearTimeout(timer);
    })();
    return this.running;
  }

  /** Wires SIGTERM/SIGINT to `run` and exits when it is done. */
  installSignalHandlers(): void {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        void this.run(signal).then(() => process.exit(0));
      });
    }
  }
}
