import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { openApiDocument } from '@crawl/gateway';
import { type ContractChecker, createContractChecker, recordContractProblems } from '@crawl/testing';

let checker: ContractChecker | undefined;
/** Every delivery a receiver gets is checked against the document's `webhooks` section. */
const deliveryContract = () => (checker ??= createContractChecker(openApiDocument()));

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  status: number;
}

/**
 * A real local webhook receiver; a delivery that breaks the documented contract fails the test. `respond` decides each answer from the number of deliveries
 * seen so far (e.g. fail 4 times then succeed); 'hang' never answers.
 */
export class Receiver {
  readonly received: Received[] = [];
  private server!: Server;
  url = '';

  constructor(private readonly respond: (n: number) => number | 'hang' = () => 204) {}

  static async start(respond?: (n: number) => number | 'hang'): Promise<Receiver> {
    const r = new Receiver(respond);
    r.server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        const answer = r.respond(r.received.length + 1);
        r.received.push({ headers: req.headers, body, at: Date.now(), status: answer === 'hang' ? 0 : answer });
        recordContractProblems(deliveryContract().checkWebhookDelivery({ headers: req.headers, body }));
        if (answer === 'hang') return;
        res.statusCode = answer;
        res.end();
      });
    });
    await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
    r.url = `http://127.0.0.1:${(r.server.address() as { port: number }).port}/hook`;
    return r;
  }

  async waitFor(count: number, timeoutMs = 20_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline) throw new Error(`receiver got ${this.received.length} deliveries, expected ${count}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return this.received;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
