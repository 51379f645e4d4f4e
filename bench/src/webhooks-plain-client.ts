import { webhookDeliveryBody } from '@crawl/core';
import { closeDeliveryAgents, deliverWebhook } from '@crawl/webhook-delivery';

/**
 * The baseline of `pnpm bench webhooks`: `n` signed POSTs to `url` with the deliverer's own
 * client, `concurrency` at a time, nothing else. Resolves with the elapsed milliseconds. Run as
 * a script (`node webhooks-plain-client.js <url> <n> <concurrency>`) it prints them, so the
 * client can also have a process of its own, as the deliverer has.
 */
export async function signedPosts(url: string, n: number, concurrency: number): Promise<number> {
  const body = webhookDeliveryBody({
    id: 'dlv_bench',
    event: 'job.completed',
    createdAt: new Date(),
    projectId: 'prj_bench',
    data: { id: 'job_bench', status: 'completed' },
  });
  let next = 0;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        await deliverWebhook({
          url,
          secret: 'whsec_bench',
          body,
          event: 'job.completed',
          deliveryId: `dlv_plain${i}`,
          webhookId: 'whk_bench',
          allowPrivate: true,
        });
      }
    }),
  );
  return Date.now() - t0;
}

if (require.main === module) {
  const [url, n, concurrency] = process.argv.slice(2);
  void signedPosts(url!, Number(n), Number(concurrency)).then((ms) => {
    closeDeliveryAgents();
    process.stdout.write(String(ms));
  });
}
