import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ConfigError, DEV_SECRETS_KEY, resolveSecretsKey } from './env';

const REAL = 'ab'.repeat(32);

describe('resolveSecretsKey (fail closed)', () => {
  it('refuses a missing or development key in production, naming the variable and how to make one', () => {
    for (const env of [{ NODE_ENV: 'production' }, { NODE_ENV: 'production', SECRETS_KEY: DEV_SECRETS_KEY }]) {
      expect(() => resolveSecretsKey(env)).toThrow(ConfigError);
      expect(() => resolveSecretsKey(env)).toThrow(/SECRETS_KEY: .*openssl rand -hex 32/);
    }
  });

  it('uses a real key anywhere, and the development key only outside production', () => {
    expect(resolveSecretsKey({ NODE_ENV: 'production', SECRETS_KEY: REAL })).toBe(REAL);
    expect(resolveSecretsKey({ SECRETS_KEY: REAL })).toBe(REAL);
    expect(resolveSecretsKey({})).toBe(DEV_SECRETS_KEY);
    expect(resolveSecretsKey({ NODE_ENV: 'development' })).toBe(DEV_SECRETS_KEY);
  });
});

describe('services started with NODE_ENV=production and no SECRETS_KEY', () => {
  const root = path.resolve(__dirname, '../../..');
  it.each(['gateway', 'webhooks'])('%s exits 1 at start with one line saying how to make a key', (service) => {
    const main = path.join(root, 'services', service, 'dist', 'main.js');
    const run = spawnSync(process.execPath, [main], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
        REDIS_URL: 'redis://127.0.0.1:1',
      },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'config error: SECRETS_KEY: is not set; production needs a real one, e.g. SECRETS_KEY=$(openssl rand -hex 32)',
    ]);
  });
});
