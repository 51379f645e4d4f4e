import { useState } from 'react';
import { ApiError, fieldErrorsOf } from '../../api/client';
import { useWrite } from '../../api/use-write';
import { FormDialog } from '../../ui/form-dialog';
import { Button, Field, SelectField } from '../../ui/forms';
import type { Schedule } from '../schedules/schedules.queries';
import { type CreateDestinationBody, createDestination, destinationKeys, type DestinationFormat } from './destinations.queries';
import { FORMAT_CODES, FORMATS } from './format';

interface FormState {
  name: string;
  bucket: string;
  region: string;
  endpoint: string;
  prefix: string;
  accessKeyId: string;
  secretAccessKey: string;
  format: DestinationFormat;
  gzip: boolean;
  /** Empty: every completed job of the project. */
  scheduleIds: string[];
}

const INITIAL: FormState = {
  name: '',
  bucket: '',
  region: 'us-east-1',
  endpoint: '',
  prefix: '',
  accessKeyId: '',
  secretAccessKey: '',
  format: 'jsonl',
  gzip: false,
  scheduleIds: [],
};

/** What to check first for the storage's usual refusals of the test write. */
const HINTS: Record<string, string> = {
  SignatureDoesNotMatch: 'Check the secret access key.',
  InvalidAccessKeyId: 'Check the access key ID: the storage does not know it.',
  AccessDenied: 'The key may not write and delete objects under this prefix: check its policy.',
  NoSuchBucket: 'Check the bucket name, and that the bucket exists at this endpoint.',
  AuthorizationHeaderMalformed: 'Check the region: the bucket is in another one.',
  ConnectionRefused: 'Check the endpoint: nothing answered there.',
  EndpointNotFound: 'Check the endpoint: its name does not resolve.',
  Timeout: 'The storage did not answer in time: check the endpoint.',
};

/** The storage's code and message of a failed test write, or null for any other error. */
function unreachable(error: unknown): { code: string; message: string } | null {
  if (!(error instanceof ApiError) || error.code !== 'DESTINATION_UNREACHABLE') return null;
  const details = (error.details ?? {}) as { storageCode?: string; storageMessage?: string };
  return { code: details.storageCode ?? 'Unknown', message: details.storageMessage ?? error.message };
}

function bodyOf(form: FormState): CreateDestinationBody {
  return {
    name: form.name.trim(),
    type: 's3',
    bucket: form.bucket.trim(),
    region: form.region.trim(),
    ...(form.endpoint.trim() ? { endpoint: form.endpoint.trim() } : {}),
    ...(form.prefix ? { prefix: form.prefix } : {}),
    accessKeyId: form.accessKeyId.trim(),
    secretAccessKey: form.secretAccessKey,
    format: form.format,
    gzip: form.gzip,
    ...(form.scheduleIds.length ? { scheduleIds: form.scheduleIds } : {}),
  };
}

/**
 * `Add destination`: a bucket, its credentials and the export format. The API saves it only after
 * a test write with these settings; its refusal is shown with the storage's own code, the form
 * keeps what was typed, and an edit makes it sendable again (docs/console.md, "Forms").
 */
export function AddDestinationDialog({ projectId, schedules }: { projectId: string; schedules: Schedule[] | undefined }) {
  const [form, setForm] = useState<FormState>(INITIAL);
  const create = useWrite(() => createDestination(projectId, bodyOf(form)), destinationKeys.ofProject(projectId));
  const set =
    <K extends keyof FormState>(key: K) =>
    (value: FormState[K]) => {
      setForm((f) => ({ ...f, [key]: value }));
      // the API's answer was about the form as it was: an edit drops it
      if (create.error) create.reset();
    };
  const errors = fieldErrorsOf(create.error);
  const failed = unreachable(create.error);
  // field problems are shown at their fields; anything else (the limit of 10, an unknown field) in the dialog's alert
  const allAtFields = Object.keys(errors).length > 0 && Object.keys(errors).every((k) => k in INITIAL);
  return (
    <FormDialog
      trigger={<Button>Add destination</Button>}
      title="Add destination"
      submitLabel={create.isPending ? 'Testing the bucket…' : 'Test and save'}
      pendingStyle="disabled"
      className="dialog add-destination"
      onOpenChange={(open) => !open && (create.reset(), setForm(INITIAL))}
      onSubmit={(close) => create.mutate(undefined, { onSuccess: close })}
      isPending={create.isPending}
      error={failed || allAtFields ? null : create.error}
      errorTitle="The destination was not saved."
      submitNote="A test object is written and deleted with these settings first; nothing is saved unless that works."
    >
      <Field label="Name" autoFocus isRequired value={form.name} onChange={set('name')} error={errors.name} />
      <div className="pair">
        <Field label="Bucket" isRequired value={form.bucket} onChange={set('bucket')} error={errors.bucket} />
        <Field
          label="Region"
          isRequired
          value={form.region}
          onChange={set('region')}
          description="The bucket's region, such as eu-west-1."
          error={errors.region}
        />
      </div>
      <Field
        label="Endpoint"
        type="url"
        value={form.endpoint}
        onChange={set('endpoint')}
        placeholder="https://s3.example.com"
        description="Optional: only for S3-compatible storage (MinIO, Cloudflare R2, Backblaze B2, …). Empty: AWS S3."
        error={errors.endpoint}
      />
      <Field
        label="Prefix"
        value={form.prefix}
        onChange={set('prefix')}
        placeholder="crawl/"
        description="Optional: put before every key, which reads {prefix}{projectId}/YYYY/MM/DD/{jobId}.{ext}."
        error={errors.prefix}
      />
      <div className="pair">
        <Field label="Access key ID" isRequired value={form.accessKeyId} onChange={set('accessKeyId')} error={errors.accessKeyId} />
        <Field
          label="Secret access key"
          type="password"
          isRequired
          autoComplete="off"
          value={form.secretAccessKey}
          onChange={set('secretAccessKey')}
          description="Stored encrypted, never shown again."
          error={errors.secretAccessKey}
        />
      </div>
      <div className="pair">
        <SelectField<DestinationFormat>
          label="Format"
          value={form.format}
          onChange={set('format')}
          options={FORMAT_CODES.map((f) => ({ value: f, label: FORMATS[f] }))}
          error={errors.format}
        />
        <label className="check">
          <input type="checkbox" checked={form.gzip} onChange={(e) => set('gzip')(e.target.checked)} aria-describedby="gzip-help" /> Gzip
          <span id="gzip-help" className="muted block">
            Compressed, with a .gz key.
          </span>
        </label>
      </div>
      {schedules && schedules.length > 0 && (
        <fieldset className="checks">
          <legend>Jobs</legend>
          <span className="muted">None ticked: every completed job of the project. Else only the jobs these schedules start.</span>
          {schedules.map((s) => (
            <label key={s.id}>
              <input
                type="checkbox"
                checked={form.scheduleIds.includes(s.id)}
                onChange={(e) =>
                  set('scheduleIds')(e.target.checked ? [...form.scheduleIds, s.id] : form.scheduleIds.filter((id) => id !== s.id))
                }
              />{' '}
              Schedule <code>{s.cron}</code> <span className="mono muted">{s.id}</span>
            </label>
          ))}
          {errors.scheduleIds && <span className="field-error">{errors.scheduleIds}</span>}
        </fieldset>
      )}
      {failed && (
        <div role="alert" className="notice error">
          <strong>The test write failed: {failed.code}.</strong> {failed.message}
          {HINTS[failed.code] && <span className="block">{HINTS[failed.code]}</span>}
          {create.error instanceof ApiError && create.error.requestId && (
            <span className="request-id block">
              Request id: <code>{create.error.requestId}</code>
            </span>
          )}
        </div>
      )}
    </FormDialog>
  );
}
