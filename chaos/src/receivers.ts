/**
 * Webhook receivers inside the chaos process: normal (204 at once), flapping (500 for ~30 % of
 * requests) and slow (answers after 2-2.8 s). Each verifies the signature of the RAW body with
 * the secret of the webhook named in `X-Service-Webhook-Id` and records what it got.
 */
import { createServer, type Server } from 'node:http';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, verify, WEBHOOK_ID_HEADER } from '@crawl/client';

export type ReceiverKind = 'normal' | 'flapping' | 'slow';

export interface Receipt {
  deliveryId: string;
  webhookId: string;
  event: string;
  /** `data.id` of the body (the job id for job.* events). */
  subjectId: string | null;
  bodyIdMatchesHeader: boolean;
  signature: 'ok' | string;
  status: number;
  at: number;
}

/** Flapping: a delivery id is failed at most this many times, so 5 attempts always suffice. */
const MAX_FLAPS_PER_DELIVERY = 3;

export class WebhookReceiver {
  readonly receipts: Receipt[] = [];
  /** Secrets by webhook id; filled once the webhooks are configured. */
  readonly secrets = new Map<string, string>();
  private readonly flaps = new Map<string, number>();
  private server!: Server;
  url = '';
  requests = 0;
  inFlight = 0;
  maxInFlight = 0;

  constructor(
    readonly kind: ReceiverKind,
    private readonly random: () => number = Math.random,
  ) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      this.requests += 1;
      this.inFlight += 1;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('error', () => undefined);
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const header = (name: string) => {
          const v = req.headers[name];
          return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
        };
        const deliveryId = header(DELIVERY_HEADER);
        const webhookId = header(WEBHOOK_ID_HEADER);
        const secret = this.secrets.get(webhookId);
        let signature: string;
        if (!secret) signature = 'unknown webhook id';
        else {
          const result = verify(secret, raw, req.headers[SIGNATURE_HEADER]);
          signature = result.ok ? 'ok' : result.reason;
        }
        let subjectId: string | null = null;
        let bodyId: string | null = null;
        try {
          const body = JSON.parse(raw.toString('utf8')) as { id?: string; data?: { id?: string; alertId?: string } };
          bodyId = body.id ?? null;
          // a job event's subject is the job, a product.alert's its alert
          subjectId = body.data?.id ?? body.data?.alertId ?? null;
        } catch {
          // recorded as not matching
        }
        let status = 204;
        let delayMs = 0;
        if (signature !== 'ok') status = 400;
        else if (this.kind === 'flapping') {
          const flapped = this.flaps.get(deliveryId) ?? 0;
          if (flapped < MAX_FLAPS_PER_DELIVERY && this.random() < 0.3) {
            this.flaps.set(deliveryId, flapped + 1);
            status = 500;
          }
        } else if (this.kind === 'slow') delayMs = 2_000 + Math.floor(this.random() * 800);
        const answer = () => {
          this.receipts.push({
            deliveryId,
            webhookId,
            event: header(EVENT_HEADER),
            subjectId,
            bodyIdMatchesHeader: bodyId === deliveryId,
            signature,
            status,
            at: Date.now(),
          });
          this.inFlight -= 1;
          if (res.destroyed) return;
          res.statusCode = status;
          res.end();
        };
        if (delayMs) setTimeout(answer, delayMs);
        else answer();
      });
    });
    this.server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/hooks/${this.kind}`;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
