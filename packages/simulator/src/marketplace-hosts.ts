/**
 * The public host of each marketplace. Saved pages link root-relative (`/dp/B0...`), which a
 * client would resolve against the simulator's own address; generated pages link to the
 * marketplace the page belongs to instead, as a page fetched from that marketplace does.
 */
const HOSTS: Record<string, string> = {
  US: 'www.amazon.com',
  UK: 'www.amazon.co.uk',
  DE: 'www.amazon.de',
  FR: 'www.amazon.fr',
  ES: 'www.amazon.es',
  IT: 'www.amazon.it',
  BR: 'www.amazon.com.br',
  IN: 'www.amazon.in',
  JP: 'www.amazon.co.jp',
  CA: 'www.amazon.ca',
  MX: 'www.amazon.com.mx',
  AU: 'www.amazon.com.au',
  NL: 'www.amazon.nl',
  SE: 'www.amazon.se',
  PL: 'www.amazon.pl',
  TR: 'www.amazon.com.tr',
};

/** `https://www.amazon.de` for DE; amazon.com for an unknown or missing code. */
export function marketplaceOrigin(marketplace: string): string {
  return `https://${HOSTS[marketplace.toUpperCase()] ?? HOSTS.US}`;
}

const ROOT_RELATIVE_HREF_RE = /(\bhref\s*=\s*["'])\/(?![/\\])/g;

/**
 * Rewrites root-relative `href`s to absolute links on `origin`. Runs once per template at
 * start; latin1 round-trips every byte, so multi-byte UTF-8 text is left as it was.
 */
export function absolutizeLinks(page: Buffer, origin: string): Buffer {
  return Buffer.from(page.toString('latin1').replace(ROOT_RELATIVE_HREF_RE, `$1${origin}/`), 'latin1');
}
