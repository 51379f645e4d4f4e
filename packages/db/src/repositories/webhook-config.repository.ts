import { type Selectable, sql, type Transaction } from 'kysely';
import { type EventType, newId, type WebhookSecretRotation } from '@crawl/core';
import type { Db } from '../connection';
import type { Database, WebhookConfigTable } from '../schema';

export type WebhookConfigRow = Selectable<WebhookConfigTable>;

export interface WebhookConfigInput {
  id?: string;
  name: string | null;
  url: string;
  triggerAction: EventType;
  enabled: boolean;
  secretEncrypted: string;
  /**
   * Whether the secret being stored equals the one stored under `ciphertext` (ciphertexts differ
   * for one secret, so only the caller holding the key can tell). Without it no rotation starts.
   */
  sameSecretAs?: (ciphertext: string) => boolean;
}

export interface ReplaceOptions {
  /**
   * The caller's rotation policy (`webhookSecretRotation` in @crawl/core), asked for each kept
   * configuration, under the lock, with its stored secret. Without it previous secrets are left
   * as they are.
   */
  rotation?: WebhookSecretRotation;
  /**
   * Runs in the transaction once the configurations are written and within the cap, with them
   * as they were (`before`) and are (`rows`): the audit entry of the change commits with it.
   */
  beforeCommit?: (trx: Transaction<Database>, change: { before: WebhookConfigRow[]; rows: WebhookConfigRow[] }) => Promise<void>;
}

/** Webhook configurations of a project. */
export class WebhookConfigRepository {
  constructor(private readonly db: Db) {}

  async list(projectId: string): Promise<WebhookConfigRow[]> {
    return this.db.selectFrom('webhook_config').selectAll().where('project_id', '=', projectId).orderBy('position').orderBy('id').execute();
  }

  async find(projectId: string, id: string): Promise<WebhookConfigRow | undefined> {
    return this.db.selectFrom('webhook_config').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  }

  async findById(id: string): Promise<WebhookConfigRow | undefined> {
    return this.db.selectFrom('webhook_config').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Replaces every configuration of the project in one transaction (a PATCH replaces them all). The
   * project row is locked first so that concurrent PATCHes serialize: locking the project's
   * configuration rows was not enough, since a project with none has no row to lock and ten
   * concurrent PATCHes each inserted their 20. The cap is checked again on what the
   * transaction wrote, before it commits. Returns the ids among `configs` that are not
   * configurations of this project (the caller answers 400).
   */
  async replaceAll(
    projectId: string,
    configs: WebhookConfigInput[],
    maxConfigs: number,
    options: ReplaceOptions = {},
  ): Promise<{ rows: WebhookConfigRow[] } | { unknownIds: string[] } | { tooMany: number }> {
    return this.db
      .transaction()
      .execute(async (trx) => {
        await trx.selectFrom('project').select('id').where('id', '=', projectId).forUpdate().execute();
        const existing = await trx
          .selectFrom('webhook_config')
          .selectAll()
          .where('project_id', '=', projectId)
          .orderBy('position')
          .orderBy('id')
          .forUpdate()
          .execute();
        const current = new Map(existing.map((r) => [r.id, r]));
        const known = new Set(current.keys());
        const unknownIds = configs.filter((c) => c.id && !known.has(c.id)).map((c) => c.id!);
        if (unknownIds.length) return { unknownIds };
        const now = new Date();
        const keep = new Set(configs.filter((c) => c.id).map((c) => c.id!));
        const removed = [...known].filter((id) => !keep.has(id));
        if (removed.length) {
          await trx.deleteFrom('webhook_config').where('id', 'in', removed).execute();
          // Their waiting deliveries will never be sent: cancelled now, not listed as pending until
          // their next attempt comes due. An attempt in flight (leased) ends by its own outcome, and
          // the deliverer cancels the delivery if it would be attempted again.
          await trx
            .updateTable('webhook_delivery')
            .set({ status: 'cancelled', finished_at: now, locked_until: null })
            .where('webhook_id', 'in', removed)
            .where('status', '=', 'pending')
            .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now()`)]))
            .execute();
        }
        for (const [position, c] of configs.entries()) {
          const values = {
            name: c.name,
            url: c.url,
            trigger_action: c.triggerAction,
            enabled: c.enabled,
            secret_encrypted: c.secretEncrypted,
            position,
            updated_at: now,
          };
          if (c.id) {
            const previous = options.rotation?.(current.get(c.id)!.secret_encrypted, c, now);
            await trx
              .updateTable('webhook_config')
              .set({
                ...values,
                ...(previous && { previous_secret_encrypted: previous.sealed, previous_secret_expires_at: previous.expiresAt }),
                ...(c.enabled ? REENABLED : {}),
              })
              .where('id', '=', c.id)
              .execute();
          } else
            await trx
              .insertInto('webhook_config')
              .values({ id: newId('whk'), project_id: projectId, ...values })
              .execute();
        }
        const rows = await trx
          .selectFrom('webhook_config')
          .selectAll()
          .where('project_id', '=', projectId)
          .orderBy('position')
          .orderBy('id')
          .execute();
        // Throwing rolls the transaction back: nothing over the cap is ever committed.
        if (rows.length > maxConfigs) throw new CapExceeded(rows.length);
        await options.beforeCommit?.(trx, { before: existing, rows });
        return { rows };
      })
      .catch((err: unknown) => {
        if (err instanceof CapExceeded) return { tooMany: err.count };
        throw err;
      });
  }
}

/** `enabled: true` in a PATCH re-enables an automatically disabled endpoint and forgets its failures. */
const REENABLED = { disabled_at: null, disabled_reason: null, failing_since: null };

class CapExceeded extends Error {
  constructor(readonly count: number) {
    super(`${count} webhook configurations`);
  }
}
