import { type RetentionPolicy, runRetentionSweep } from '@crawl/jobs';
import type { RetentionRepository } from '@crawl/db';
import type { Logger } from '@crawl/observability';
import type { SchedulerConfig } from './config';

export function retentionPolicy(config: SchedulerConfig): RetentionPolicy {
  return {
    days: { starter: config.RETENTION_DAYS_STARTER, growth: config.RETENTION_DAYS_GROWTH, enterprise: config.RETENTION_DAYS_ENTERPRISE },
    batchSize: config.RETENTION_BATCH_SIZE,
  };
}

/**
 * Runs the retention sweep every `intervalMs`, one sweep at a time per replica; a sweep ends by
 * the next one's due time (work left is continued then). Replicas may overlap: every purge
 * statement is idempotent.
 */
export class RetentionLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly retention: RetentionRepository,
    private readonly policy: RetentionPolicy,
    private readonly intervalMs: number,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.tick();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private tick(): void {
    if (this.running) return;
    this.running = runRetentionSweep(this.retention, this.policy, Date.now() + this.intervalMs)
      .then((report) => {
        if (report.jobsMarked || report.resultsDeleted || report.attemptsDeleted || report.deliveriesDeleted)
          this.log.info({ ...report }, 'retention sweep');
      })
      .catch((err) => this.log.warn({ err }, 'retention sweep failed; the next one retries'))
      .finally(() => {
        this.running = null;
      });
  }
}
