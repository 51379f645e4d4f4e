import type { SecretBox } from '@crawl/core';
import { type ClaimedExportDelivery, type DestinationDeliveryQueue, type JobRepository, type ResultRepository } from '@crawl/db';
import { abortStaleUploads, DeliveryFailure, storageClient, storageFailure, uploadExport } from '@crawl/destinations';
import type { Logger } from '@crawl/observability';

export interface ExportDelivererSettings {
  /** Uploads in flight in this process. */
  concurrency: number;
  /** Uploads of one project in flight across all processes. */
  perProject: number;
  /** A claim's lease; renewed every third of it while the upload runs. */
  leaseMs: number;
  /** Delay before attempt 2; each later one x4 (with the default 30 s: 2 m, 8 m, 32 m). */
  backoffBaseMs: number;
  /** Attempts before a delivery is `failed` (a retry by hand grants one more). */
  maxAttempts: number;
  /** `WEBHOOK_ALLOW_PRIVATE_URLS`: destinations keep the webhooks' egress rules. */
  allowPrivate: boolean;
  /** Per storage request: connecting, and a silent socket. */
  timeoutMs: number;
}

export interface ExportDelivererDeps {
  queue: DestinationDeliveryQueue;
  jobs: JobRepository;
  results: ResultRepository;
  secrets: SecretBox;
  log: Logger;
  settings: ExportDelivererSettings;
  onOutcome?: (outcome: 'delivered' | 'retry' | 'failed', bytes: number) => void;
}

const NO_JOB = { code: 'JobNotFound', message: 'the job no longer exists' };
const UNREADABLE_SECRET = {
  code: 'CredentialsUnreadable',
  message: 'the stored secret key cannot be decrypted (was SECRETS_KEY changed?)',
};

/**
 * Streams completed jobs' exports to their destinations (docs/destinations.md, "Delivery"). Each
 * delivery is a row claimed under a lease; the object is published by the storage only when its
 * upload completes, under a key fixed when the job completed. So a deliverer killed midway leaves
 * nothing under the key, its lease runs out and the next attempt writes the whole object; one
 * killed after the upload but before recording it writes the same object again. Either way there
 * is one complete object and one record. Shutdown aborts uploads in flight and gives their claims
 * back unspent.
 */
export class ExportDeliverer {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly shutdown = new AbortController();
  private filling: Promise<void> | null = null;
  private again = false;

  constructor(private readonly deps: ExportDelivererDeps) {}

  /** Claims due deliveries until this process's slots are full or none is due. */
  wake(): void {
    if (this.shutdown.signal.aborted) return;
    if (this.filling) {
      this.again = true;
      return;
    }
    this.filling = this.fill()
      .catch((err: unknown) => this.deps.log.warn({ err }, 'claiming export deliveries failed'))
      .finally(() => {
        this.filling = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  async close(): Promise<void> {
    this.shutdown.abort();
    await this.filling;
    await Promise.allSettled([...this.inFlight]);
  }

  private async fill(): Promise<void> {
    const { queue, settings } = this.deps;
    while (this.inFlight.size < settings.concurrency && !this.shutdown.signal.aborted) {
      const claim = await queue.claim({ leaseMs: settings.leaseMs, perProject: settings.perProject });
      if (!claim) return;
      const running: Promise<void> = this.deliver(claim).finally(() => {
        this.inFlight.delete(running);
        this.wake();
      });
      this.inFlight.add(running);
    }
  }

  private async deliver(claim: ClaimedExportDelivery): Promise<void> {
    const { queue, settings, log } = this.deps;
    const lost = new AbortController();
    const stop = AbortSignal.any([this.shutdown.signal, lost.signal]);
    const heartbeat = setInterval(() => {
      queue.heartbeat(claim, settings.leaseMs).then(
        (held) => held || lost.abort(),
        (err: unknown) => log.warn({ err, destinationId: claim.destinationId, jobId: claim.jobId }, 'lease renewal failed'),
      );
    }, settings.leaseMs / 3);
    try {
      const bytes = await this.upload(claim, stop);
      await queue.delivered(claim, bytes);
      this.deps.onOutcome?.('delivered', bytes);
      log.info({ destinationId: claim.destinationId, jobId: claim.jobId, key: claim.key, bytes }, 'export delivered');
    } catch (err) {
      if (this.shutdown.signal.aborted) return void (await queue.release(claim).catch(() => undefined));
      if (lost.signal.aborted) return; // another deliverer holds the row now
      const failure = storageFailure(err);
      const final = claim.attempt >= settings.maxAttempts;
      const retryIn = final ? null : settings.backoffBaseMs * 4 ** (claim.attempt - 1);
      await queue.failed(claim, failure, retryIn);
      this.deps.onOutcome?.(final ? 'failed' : 'retry', 0);
      log.warn(
        { destinationId: claim.destinationId, jobId: claim.jobId, code: failure.code, attempt: claim.attempt },
        'export delivery failed',
      );
    } finally {
      clearInterval(heartbeat);
    }
  }

  private secretOf(claim: ClaimedExportDelivery): string {
    try {
      return this.deps.secrets.decrypt(claim.destination.secret_access_key_encrypted);
    } catch {
      throw new DeliveryFailure(UNREADABLE_SECRET);
    }
  }

  private async upload(claim: ClaimedExportDelivery, signal: AbortSignal): Promise<number> {
    const { destination } = claim;
    const job = await this.deps.jobs.findById(claim.jobId);
    if (!job || job.project_id !== claim.projectId) throw new DeliveryFailure(NO_JOB);
    const client = storageClient(
      {
        bucket: destination.bucket,
        region: destination.region,
        endpoint: destination.endpoint,
        accessKeyId: destination.access_key_id,
        secretAccessKey: this.secretOf(claim),
      },
      { allowPrivate: this.deps.settings.allowPrivate, timeoutMs: this.deps.settings.timeoutMs },
    );
    try {
      // parts a killed attempt left open under this key are not ours to keep paying for
      await abortStaleUploads(client, destination.bucket, claim.key);
      const { bytes } = await uploadExport(client, {
        results: this.deps.results,
        job,
        format: destination.format,
        gzip: destination.gzip,
        bucket: destination.bucket,
        key: claim.key,
        signal,
      });
      return bytes;
    } finally {
      client.destroy();
    }
  }
}
