import * as os from 'node:os';
import { promises as dnsPromises } from 'node:dns';
import { checkWebhookUrl, isPrivateAddress, UNUSABLE_HOST_REASON } from './index';

const strict = { allowPrivate: false };
const lax = { allowPrivate: true };

describe('checkWebhookUrl', () => {
  it('rejects non-http(s) schemes', async () => {
    await expect(checkWebhookUrl('ftp://example.com/hook', strict)).resolves.toEqual({
      ok: false,
      reason: 'only http and https URLs are allowed',
    });
    expect((await checkWebhookUrl('file:///etc/passwd', lax)).ok).toBe(false);
    expect((await checkWebhookUrl('javascript:alert(1)', lax)).ok).toBe(false);
  });

  it('rejects credentials in the URL, also with allowPrivate', async () => {
    for (const url of ['https://user:pass@example.com/hook', 'https://user@example.com/hook', 'https://:pw@example.com/']) {
      await expect(checkWebhookUrl(url, lax)).resolves.toEqual({
        ok: false,
        reason: 'credentials in the URL are not allowed',
      });
    }
  });

  it('rejects malformed and missing URLs', async () => {
    expect(await checkWebhookUrl('not a url', strict)).toEqual({ ok: false, reason: 'not a valid URL' });
    expect((await checkWebhookUrl('', strict)).ok).toBe(false);
    expect((await checkWebhookUrl('http://', strict)).ok).toBe(false);
    expect((await checkWebhookUrl(`https://example.com/${'a'.repeat(3000)}`, strict)).ok).toBe(false);
  });

  it('rejects private literal IPs without DNS', async () => {
    expect(await checkWebhookUrl('http://127.0.0.1:8080/hook', strict)).toEqual({
      ok: false,
      reason:
        'is a private address (127.0.0.1): private and loopback URLs are refused unless the operator sets WEBHOOK_ALLOW_PRIVATE_URLS=true',
    });
    for (const url of [
      'http://10.0.0.5/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[fd00::1]/',
      'http://0.0.0.0/',
      'http://2130706433/', // decimal 127.0.0.1
      'http://0x7f.1/', // hex/short 127.0.0.1
      'http://017700000001/', // octal 127.0.0.1
    ]) {
      const result = await checkWebhookUrl(url, strict);
      expect({ url, ok: result.ok }).toEqual({ url, ok: false });
    }
  });

  it('accepts public literal IPs without DNS', async () => {
    expect(await checkWebhookUrl('https://8.8.8.8/hook', strict)).toEqual({ ok: true });
    expect(await checkWebhookUrl('https://[2606:4700::1111]/hook', strict)).toEqual({ ok: true });
  });

  it('rejects internal host names without DNS', async () => {
    for (const url of [
      'http://localhost:3000/',
      'http://LOCALHOST./',
      'http://api.localhost/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://db.internal/',
      'http://printer.local/',
    ]) {
      const result = await checkWebhookUrl(url, strict);
      expect({ url, ok: result.ok }).toEqual({ url, ok: false });
    }
    expect(await checkWebhookUrl('http://localhost:3000/', strict)).toEqual({
      ok: false,
      reason:
        'host localhost is an internal name: private and loopback URLs are refused unless the operator sets WEBHOOK_ALLOW_PRIVATE_URLS=true',
    });
  });

  it('rejects got UNIX-socket URLs even with allowPrivate', async () => {
    expect(await checkWebhookUrl('http://unix:/var/run/docker.sock:/containers/json', lax)).toEqual({
      ok: false,
      reason: 'UNIX socket URLs are not allowed',
    });
  });

  it('allows private targets with allowPrivate', async () => {
    expect(await checkWebhookUrl('http://127.0.0.1:8080/hook', lax)).toEqual({ ok: true });
    expect(await checkWebhookUrl('http://localhost:8080/hook', lax)).toEqual({ ok: true });
    expect(await checkWebhookUrl('http://[::1]:8080/hook', lax)).toEqual({ ok: true });
  });

  it('answers a name that resolves to a private address exactly like a name that does not resolve', async () => {
    // This machine's own name goes through DNS (the system resolver, /etc/hosts included) to a
    // loopback or private address, and is on no internal-name list: only its addresses refuse it.
    const name = os.hostname();
    const addresses = await dnsPromises.lookup(name, { all: true });
    expect(addresses.some((a) => isPrivateAddress(a.address))).toBe(true);
    const privateName = await checkWebhookUrl(`http://${name}:8080/hook`, strict);
    const missingName = await checkWebhookUrl('http://does-not-exist.invalid/hook', strict);
    // Neither the resolved address nor whether the name exists is told.
    expect(privateName).toEqual({ ok: false, reason: UNUSABLE_HOST_REASON });
    expect(missingName).toEqual(privateName);
    expect(UNUSABLE_HOST_REASON).toBe(
      'host does not resolve to an address webhooks may be sent to (public addresses only, unless the operator sets WEBHOOK_ALLOW_PRIVATE_URLS=true)',
    );
    // Allowed private addresses: the name is fine, the missing one still is not.
    expect(await checkWebhookUrl(`http://${name}:8080/hook`, lax)).toEqual({ ok: true });
    expect(await checkWebhookUrl('http://does-not-exist.invalid/hook', lax)).toEqual({ ok: false, reason: UNUSABLE_HOST_REASON });
  });
});
