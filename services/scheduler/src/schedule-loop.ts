import { fireDueSchedules, type ScheduleRunnerDeps } from '@crawl/jobs';
import type { Logger } from '@crawl/observability';

const BATCH = 200;

/**
 * The due-time loop: fire what is due, then sleep until the earliest next fire time (at most
 * `maxSleepMs`, and woken early when a schedule changes). Postgres holds the schedule state,
 * so any number of replicas can run this loop.
 */
export class ScheduleLoop {
  private stopped = false;
  private wakeUp: (() => void) | null = null;
  private done: Promise<void> | null = null;

  constructor(
    private readonly deps: ScheduleRunnerDeps,
    private readonly log: Logger,
    private readonly maxSleepMs: number,
  ) {}

  start(): void {
    this.done = this.run();
  }

  wake(): void {
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.done;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let sleepMs = this.maxSleepMs;
      try {
        let fired;
        do {
          fired = await fireDueSchedules(this.deps, BATCH);
        } while (fired.fired === BATCH && !this.stopped);
        const earliest = await this.deps.schedules.earliestNextRun();
        if (earliest) sleepMs = Math.max(5, Math.min(this.maxSleepMs, earliest.getTime() - Date.now()));
      } catch (err) {
        this.log.warn({ err }, 'firing schedules failed; retrying');
      }
      if (this.stopped) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, sleepMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = null;
    }
  }
}
