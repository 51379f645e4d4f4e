/**
 * `@crawl/webhook-signature`, the shared verifier's documented name. Its one source is
 * `packages/client/src/webhook-signature.ts` (one dependency-free file, shipped inside the
 * standalone `@crawl/client` tarball); this package keeps the documented name for workspace
 * users and receivers that import it.
 */
export * from '@crawl/client/webhook-signature';
