/** `pnpm bench <name>`: prints figures measured against a baseline taken in the same run. */
import { benchCrawl } from './crawl.bench';
import { benchCrawlScale } from './crawl-scale.bench';
import { benchAnalytics } from './analytics.bench';
import { benchGateway } from './gateway.bench';
import { benchParse } from './parse.bench';
import { benchScheduler } from './scheduler.bench';
import { benchWebhooks } from './webhooks.bench';
import { benchRetention } from './retention.bench';
import { benchStoredItems } from './stored-items.bench';
import { benchSignin } from './signin.bench';
import { benchAlerts } from './alerts.bench';

const BENCHES: Record<string, () => Promise<void>> = {
  gateway: benchGateway,
  crawl: benchCrawl,
  parse: benchParse,
  'crawl-scale': benchCrawlScale,
  webhooks: benchWebhooks,
  scheduler: benchScheduler,
  analytics: benchAnalytics,
  retention: benchRetention,
  'stored-items': benchStoredItems,
  signin: benchSignin,
  alerts: benchAlerts,
};

async function main(): Promise<void> {
  const name = process.argv[2];
  const bench = name ? BENCHES[name] : undefined;
  if (!bench) {
    console.error(`usage: pnpm bench <${Object.keys(BENCHES).join('|')}>`);
    process.exit(2);
  }
  await bench();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
