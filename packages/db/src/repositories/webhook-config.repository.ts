import { type Selectable, sql, type Transaction } from 'kysely';
import { type EventType, newId } from '@crawl/core';
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
   * A kept configuration whose secret changes starts a rotation: the previous secret keeps
   * signing deliveries, next to the new one, for this long (0: no rotation).
   */
  rotationGraceMs?: number;
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
            await trx
              .updateTable('webhook_config')
              .set({ ...values, ...rotation(current.get(c.id)!, c, options.rotationGraceMs ?? 0, now), ...(c.enabled ? REENABLED : {}) })
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

/**
 * The previous-secret columns after storing `next` over `stored`: a changed secret starts a
 * rotation (the old one signs too until the grace ends); the same secret keeps a rotation in
 * progress; a rotation during a rotation drops the oldest secret (two signatures at most).
 */
function rotation(stored: Pick<WebhookConfigRow, 'secret_encrypted'>, next: WebhookConfigInput, graceMs: number, now: Date) {
  const unchanged = stored.secret_encrypted === next.secretEncrypted || !next.sameSecretAs || next.sameSecretAs(stored.secret_encrypted);
  if (unchanged) return {};
  if (graceMs <= 0) return { previous_secret_encrypted: null, previous_secret_expires_at: null };
  return { previous_secret_encrypted: stored.secret_encrypted, previous_secret_expires_at: new Date(now.getTime() + graceMs) };
}

class CapExceeded extends Error {
  constructor(readonly count: number) {
    super(`${count} webhook configurations`);
  }
}
