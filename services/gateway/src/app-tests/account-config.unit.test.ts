import { ConfigError } from '@crawl/config';
import { loadGatewayConfig } from '../config';

const SECRETS_KEY = 'a'.repeat(64);

describe('account settings', () => {
  it('defaults: open sign-up with 100 credits, links to localhost on PORT, outbox mail with links logged', () => {
    const config = loadGatewayConfig({ PORT: '9090' });
    expect(config.SIGNUP_MODE).toBe('open');
    expect(config.SIGNUP_CREDITS).toBe(100);
    expect(config.mail).toEqual({ publicUrl: 'http://localhost:9090', mailOutboxDir: '.mail-outbox', logMailLinks: true });
  });

  it('production refuses to start without SMTP_URL unless an outbox folder is chosen, and never logs links', () => {
    expect(() => loadGatewayConfig({ NODE_ENV: 'production', SECRETS_KEY })).toThrow(ConfigError);
    expect(() => loadGatewayConfig({ NODE_ENV: 'production', SECRETS_KEY })).toThrow(/SMTP_URL/);
    const smtp = loadGatewayConfig({ NODE_ENV: 'production', SECRETS_KEY, SMTP_URL: 'smtps://u:p@mail.example:465' });
    expect(smtp.mail.logMailLinks).toBe(false);
    const outbox = loadGatewayConfig({ NODE_ENV: 'production', SECRETS_KEY, MAIL_OUTBOX_DIR: '/var/mail-out' });
    expect(outbox.mail).toMatchObject({ mailOutboxDir: '/var/mail-out', logMailLinks: false });
  });

  it('refuses bad values with the variable named', () => {
    expect(() => loadGatewayConfig({ SIGNUP_MODE: 'sometimes' })).toThrow(/SIGNUP_MODE/);
    expect(() => loadGatewayConfig({ SMTP_URL: 'http://mail.example' })).toThrow(/SMTP_URL/);
    expect(() => loadGatewayConfig({ PUBLIC_URL: 'ftp://x' })).toThrow(/PUBLIC_URL/);
    expect(loadGatewayConfig({ PUBLIC_URL: 'https://crawl.example.com/' }).mail.publicUrl).toBe('https://crawl.example.com');
  });
});
