import { seg } from '../pagination';
import type { Transport } from '../transport';
import type { ApiKey, CreateApiKeyBody, CreatedApiKey, RotateApiKeyBody } from '../types';

/** A project's API keys, managed with a console session (`CrawlAccount.keys`). */
export class ApiKeysResource {
  constructor(private readonly transport: Transport) {}

  /** Owners and admins see every key of the project, developers the keys they created; revoked keys included, secrets never. */
  async list(projectId: string): Promise<ApiKey[]> {
    const res = await this.transport.json<{ data: ApiKey[] }>({
      method: 'GET',
      path: `/v1/account/projects/${seg(projectId)}/keys`,
      retryable: true,
    });
    return res.data;
  }

  /**
   * A new key of the project, with its `secret`: the only time the secret is shown, so store it
   * now. Never retried automatically: a lost answer may mean a key was made whose secret nobody
   * saw (list the keys and revoke it).
   */
  async create(projectId: string, body: CreateApiKeyBody): Promise<CreatedApiKey> {
    const res = await this.transport.json<{ data: CreatedApiKey }>({
      method: 'POST',
      path: `/v1/account/projects/${seg(projectId)}/keys`,
      body,
      retryable: false,
    });
    return res.data;
  }

  /**
   * A new key (with its `secret`) of the same label, scope and expiry; the old one keeps working
   * for `overlapSeconds` (0 to 86,400, default 0: revoked at once). Never retried automatically:
   * a repeat would rotate the new key too.
   */
  async rotate(keyId: string, body: RotateApiKeyBody = {}): Promise<CreatedApiKey> {
    const res = await this.transport.json<{ data: CreatedApiKey }>({
      method: 'POST',
      path: `/v1/account/keys/${seg(keyId)}/rotate`,
      body,
      retryable: false,
    });
    return res.data;
  }

  /** Stops the key at once, on every gateway. Revoking a revoked key changes nothing, so this is retried like a read. */
  async revoke(keyId: string): Promise<void> {
    await this.transport.json<undefined>({ method: 'DELETE', path: `/v1/account/keys/${seg(keyId)}`, retryable: true });
  }
}
