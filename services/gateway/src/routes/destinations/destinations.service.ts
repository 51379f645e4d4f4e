import {
  AppError,
  type CreateDestinationInput,
  type DestinationDeliveryResource,
  type DestinationResource,
  MAX_DESTINATIONS_PER_PROJECT,
  SecretBox,
  type UpdateDestinationInput,
} from '@crawl/core';
import {
  type AuditLogRepository,
  type DestinationDeliveryFilter,
  type DestinationDeliveryRow,
  DestinationRepository,
  type DestinationRow,
  type DestinationValues,
} from '@crawl/db';
import { EndpointNotAllowed, storageClient, type StorageTarget, verifyDestination } from '@crawl/destinations';
import type { GatewayContext } from '../../context';
import { type ProjectActor, recordProjectChange } from '../project-audit';

export function toDestinationResource(row: DestinationRow): DestinationResource {
  return {
    id: row.id,
    projectId: row.project_id,
    name: row.name,
    type: row.type,
    bucket: row.bucket,
    region: row.region,
    endpoint: row.endpoint,
    prefix: row.prefix,
    accessKeyId: row.access_key_id,
    format: row.format,
    gzip: row.gzip,
    scheduleIds: row.schedule_ids,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function toDeliveryResource(row: DestinationDeliveryRow): DestinationDeliveryResource {
  return {
    destinationId: row.destination_id,
    jobId: row.job_id,
    key: row.key,
    bytes: row.bytes === null ? null : Number(row.bytes),
    status: row.status,
    attempts: row.attempts,
    error: row.error_code ? { code: row.error_code, message: row.error_message ?? '' } : null,
    createdAt: row.created_at.toISOString(),
    deliveredAt: row.delivered_at?.toISOString() ?? null,
  };
}

/** What the audit log keeps of a destination: where and how it writes, never a credential. */
const summary = (r: DestinationRow) => ({
  name: r.name,
  bucket: r.bucket,
  region: r.region,
  endpoint: r.endpoint,
  prefix: r.prefix,
  format: r.format,
  gzip: r.gzip,
  schedules: r.schedule_ids?.length ?? null,
});

function changes(before: DestinationRow, after: DestinationRow): Record<string, unknown> {
  const a = summary(before) as Record<string, unknown>;
  const b = summary(after) as Record<string, unknown>;
  const changed: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of Object.keys(b)) if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) changed[key] = { from: a[key], to: b[key] };
  const credentials =
    before.access_key_id !== after.access_key_id || before.secret_access_key_encrypted !== after.secret_access_key_encrypted;
  return { changed: [...Object.keys(changed), ...(credentials ? ['credentials'] : [])], ...changed };
}

const invalid = (path: string, message: string) =>
  new AppError('VALIDATION_ERROR', `Invalid destination: ${path.replace(/^body\./, '')} ${message}.`, { details: [{ path, message }] });

/** The fields that say where and with which key a destination writes: changing one tests it again. */
const WRITE_FIELDS = ['bucket', 'region', 'endpoint', 'prefix', 'accessKeyId', 'secretAccessKey'] as const;

/**
 * Storage destinations (docs/destinations.md). A destination is saved only after its test (a
 * test object written and deleted with its credentials) passed; its secret key is encrypted at
 * rest and never returned. Creations, changes and deletions are in the audit log.
 */
export class DestinationService {
  constructor(
    private readonly destinations: DestinationRepository,
    private readonly audit: AuditLogRepository,
    private readonly secrets: SecretBox,
    private readonly allowPrivate: boolean,
  ) {}

  /** Writes and deletes a test object; a refusal is `400 DESTINATION_UNREACHABLE` with the storage's code. */
  private async test(target: StorageTarget, prefix: string): Promise<void> {
    let client;
    try {
      client = storageClient(target, { allowPrivate: this.allowPrivate, timeoutMs: 10_000 });
    } catch (err) {
      if (err instanceof EndpointNotAllowed) throw invalid('body.endpoint', err.message);
      throw err;
    }
    try {
      const result = await verifyDestination(client, target.bucket, prefix);
      if (!result.ok)
        throw new AppError('DESTINATION_UNREACHABLE', `The destination's test write failed: ${result.code}: ${result.message}`, {
          details: { storageCode: result.code, storageMessage: result.message },
        });
    } finally {
      client.destroy();
    }
  }

  private async checkSchedules(projectId: string, scheduleIds: string[] | null | undefined): Promise<void> {
    if (!scheduleIds?.length) return;
    const foreign = await this.destinations.foreignSchedules(projectId, [...new Set(scheduleIds)]);
    if (foreign.length) throw invalid('body.scheduleIds', `must name schedules of this project (not: ${foreign.join(', ')})`);
  }

  async create(actor: ProjectActor, body: CreateDestinationInput): Promise<DestinationResource> {
    await this.checkSchedules(actor.projectId, body.scheduleIds);
    const values: DestinationValues = {
      name: body.name,
      bucket: body.bucket,
      region: body.region,
      endpoint: body.endpoint ?? null,
      prefix: body.prefix ?? '',
      accessKeyId: body.accessKeyId,
      secretAccessKeyEncrypted: this.secrets.encrypt(body.secretAccessKey),
      format: body.format,
      gzip: body.gzip ?? false,
      scheduleIds: body.scheduleIds ? [...new Set(body.scheduleIds)] : null,
    };
    await this.test({ ...values, secretAccessKey: body.secretAccessKey }, values.prefix);
    const row = await this.destinations.create(actor, values, MAX_DESTINATIONS_PER_PROJECT, (trx, created) =>
      recordProjectChange(this.audit, trx, actor, 'destination.created', { type: 'destination', id: created.id }, summary(created)),
    );
    if (!row)
      throw new AppError(
        'VALIDATION_ERROR',
        `This project already has ${MAX_DESTINATIONS_PER_PROJECT} destinations, the most a project may have; delete one first.`,
        {
          details: [{ path: 'project', message: `at most ${MAX_DESTINATIONS_PER_PROJECT} destinations per project` }],
        },
      );
    return toDestinationResource(row);
  }

  async list(projectId: string): Promise<DestinationResource[]> {
    return (await this.destinations.list(projectId)).map(toDestinationResource);
  }

  /** A destination of the caller's project: any other id is 404, as for anything of another tenant. */
  private async load(id: string, projectId: string): Promise<DestinationRow> {
    const row = await this.destinations.findById(id);
    if (!row || row.project_id !== projectId) throw new AppError('NOT_FOUND', `Destination ${id} not found.`);
    return row;
  }

  async get(id: string, projectId: string): Promise<DestinationResource> {
    return toDestinationResource(await this.load(id, projectId));
  }

  async update(id: string, actor: ProjectActor, body: UpdateDestinationInput): Promise<DestinationResource> {
    const current = await this.load(id, actor.projectId);
    await this.checkSchedules(actor.projectId, body.scheduleIds);
    const secret = body.secretAccessKey ?? this.secrets.decrypt(current.secret_access_key_encrypted);
    const target: StorageTarget = {
      bucket: body.bucket ?? current.bucket,
      region: body.region ?? current.region,
      endpoint: body.endpoint !== undefined ? body.endpoint : current.endpoint,
      accessKeyId: body.accessKeyId ?? current.access_key_id,
      secretAccessKey: secret,
    };
    if (WRITE_FIELDS.some((f) => body[f] !== undefined)) await this.test(target, body.prefix ?? current.prefix);
    const row = await this.destinations.update(
      id,
      {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.bucket !== undefined ? { bucket: body.bucket } : {}),
        ...(body.region !== undefined ? { region: body.region } : {}),
        ...(body.endpoint !== undefined ? { endpoint: body.endpoint } : {}),
        ...(body.prefix !== undefined ? { prefix: body.prefix } : {}),
        ...(body.accessKeyId !== undefined ? { accessKeyId: body.accessKeyId } : {}),
        ...(body.secretAccessKey !== undefined ? { secretAccessKeyEncrypted: this.secrets.encrypt(body.secretAccessKey) } : {}),
        ...(body.format !== undefined ? { format: body.format } : {}),
        ...(body.gzip !== undefined ? { gzip: body.gzip } : {}),
        ...(body.scheduleIds !== undefined ? { scheduleIds: body.scheduleIds ? [...new Set(body.scheduleIds)] : null } : {}),
      },
      (trx, { before, after }) =>
        recordProjectChange(this.audit, trx, actor, 'destination.updated', { type: 'destination', id }, changes(before, after)),
    );
    if (!row) throw new AppError('NOT_FOUND', `Destination ${id} not found.`);
    return toDestinationResource(row);
  }

  async delete(id: string, actor: ProjectActor): Promise<void> {
    await this.load(id, actor.projectId);
    await this.destinations.delete(id, (trx, deleted) =>
      recordProjectChange(this.audit, trx, actor, 'destination.deleted', { type: 'destination', id }, summary(deleted)),
    );
  }

  async deliveries(id: string, projectId: string, filter: DestinationDeliveryFilter) {
    await this.load(id, projectId);
    const { rows, total } = await this.destinations.deliveries(id, filter);
    return {
      data: rows.map(toDeliveryResource),
      pagination: { total, limit: filter.limit, offset: filter.offset, hasMore: filter.offset + filter.limit < total },
    };
  }

  async retry(id: string, projectId: string, jobId: string): Promise<DestinationDeliveryResource> {
    await this.load(id, projectId);
    const row = await this.destinations.retry(id, jobId);
    if (!row) throw new AppError('NOT_FOUND', `No delivery of job ${jobId} to destination ${id}.`);
    return toDeliveryResource(row);
  }
}

export const createDestinationService = (ctx: Pick<GatewayContext, 'db' | 'accounts' | 'settings'>): DestinationService =>
  new DestinationService(
    new DestinationRepository(ctx.db),
    ctx.accounts.audit,
    SecretBox.fromKey(ctx.settings.secretsKey),
    ctx.settings.allowPrivateWebhookUrls,
  );
