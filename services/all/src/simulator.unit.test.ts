import { loadGatewayConfig } from '@crawl/gateway';
import { loadWebhooksConfig } from '@crawl/webhooks';
import { loadWorkerConfig } from '@crawl/worker';
import { crawlingBannerLines, SIMULATOR_ENV_DEFAULTS, simulatorEnv } from './simulator';

const SIM = 'http://127.0.0.1:9100';

describe('`pnpm start:sim` environment', () => {
  it('allows loopback webhook receivers and crawls at a local politeness when those variables are not set', () => {
    const { env, defaulted } = simulatorEnv({ DATABASE_URL: 'postgres://x@127.0.0.1:5432/y' }, SIM);
    expect(defaulted.sort()).toEqual(['CRAWL_EXIT_RPS', 'WEBHOOK_ALLOW_PRIVATE_URLS']);
    // what the services really read from it
    expect(loadGatewayConfig(env).WEBHOOK_ALLOW_PRIVATE_URLS).toBe(true);
    expect(loadWebhooksConfig(env).WEBHOOK_ALLOW_PRIVATE_URLS).toBe(true);
    const worker = loadWorkerConfig(env);
    expect(worker.CRAWL_EXIT_RPS).toBe(Number(SIMULATOR_ENV_DEFAULTS.CRAWL_EXIT_RPS));
    expect(worker.exits.every((exit) => exit.rps === Number(SIMULATOR_ENV_DEFAULTS.CRAWL_EXIT_RPS))).toBe(true);
    expect(worker.origins.override).toBe(SIM);
    // 60 targets through the one local exit: well under a second of politeness, not 75 s at 0.8/s
    expect(60 / worker.CRAWL_EXIT_RPS).toBeLessThan(1);
  });

  it('keeps every value set explicitly, false included', () => {
    const { env, defaulted } = simulatorEnv({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false', CRAWL_EXIT_RPS: '2' }, SIM);
    expect(defaulted).toEqual([]);
    expect(loadGatewayConfig(env).WEBHOOK_ALLOW_PRIVATE_URLS).toBe(false);
    expect(loadWebhooksConfig(env).WEBHOOK_ALLOW_PRIVATE_URLS).toBe(false);
    expect(loadWorkerConfig(env).CRAWL_EXIT_RPS).toBe(2);
  });

  it('leaves `pnpm start` (no simulator) at the production defaults', () => {
    expect(loadGatewayConfig({}).WEBHOOK_ALLOW_PRIVATE_URLS).toBe(false);
    expect(loadWorkerConfig({}).CRAWL_EXIT_RPS).toBe(0.8);
  });
});

describe('the banner', () => {
  it('under start:sim says what was defaulted and how to change it', () => {
    const lines = crawlingBannerLines({
      override: SIM,
      simulator: true,
      exitRps: 200,
      allowPrivateWebhooks: true,
      defaulted: ['CRAWL_EXIT_RPS', 'WEBHOOK_ALLOW_PRIVATE_URLS'],
    });
    expect(lines).toEqual([
      `  crawling ${SIM} (the simulator) at CRAWL_EXIT_RPS=200 (the start:sim default; set it to change)`,
      '  webhooks receivers on loopback and private addresses allowed: WEBHOOK_ALLOW_PRIVATE_URLS=true (the start:sim default; set it to change)',
    ]);
    const explicit = crawlingBannerLines({ override: SIM, simulator: true, exitRps: 2, allowPrivateWebhooks: false, defaulted: [] });
    expect(explicit[0]).toContain('CRAWL_EXIT_RPS=2 (as set)');
    expect(explicit[1]).toContain('refused: WEBHOOK_ALLOW_PRIVATE_URLS=false (as set)');
  });

  it('under `pnpm start` points at `pnpm start:sim`, not at MARKETPLACE_ORIGIN_OVERRIDE', () => {
    const lines = crawlingBannerLines({ override: undefined, simulator: false, exitRps: 0.8, allowPrivateWebhooks: false, defaulted: [] });
    expect(lines).toEqual(['  crawling real marketplaces (`pnpm start:sim` crawls a local simulator instead)']);
    expect(lines.join('\n')).not.toContain('MARKETPLACE_ORIGIN_OVERRIDE');
  });
});
