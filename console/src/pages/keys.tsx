import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { Dialog, DialogTrigger, Form, Heading, Input, Label, Modal, Radio, RadioGroup, TextField } from 'react-aria-components';
import { api, ApiError, type Schemas, unwrap } from '../api/client';
import { Button, EmptyState, ErrorNotice, Field, Loading } from '../ui/forms';
import { useProjectOfPage } from '../ui/layout';
import { DateTime } from '../ui/time';

type Key = Schemas['ApiKey'];

const keysQuery = (projectId: string) => ({
  queryKey: ['keys', projectId],
  queryFn: async () => (await unwrap(api.GET('/v1/account/projects/{projectId}/keys', { params: { path: { projectId } } }))).data,
});

/** A curl line to try the key, with the secret masked (it is shown in full only in the field above it). */
const curlSnippet = (projectId: string) =>
  `curl ${window.location.origin}/v1/key/projects/${projectId}/jobs -H "Authorization: Bearer $CRAWL_API_KEY"`;

function SecretPanel({ secret, projectId, onDone }: { secret: string; projectId: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="secret">
      <p>Copy the key now: it is shown this once, and only its hash is kept.</p>
      <TextField isReadOnly value={secret} className="field">
        <Label>Secret</Label>
        <Input className="mono" onFocus={(e) => e.currentTarget.select()} />
      </TextField>
      <div className="row">
        <Button
          variant="secondary"
          onPress={async () => {
            await navigator.clipboard?.writeText(secret).catch(() => undefined);
            setCopied(true);
          }}
        >
          Copy key
        </Button>
        <span role="status">{copied ? 'Copied.' : ''}</span>
      </div>
      <p>
        Try it (with the key in <code>CRAWL_API_KEY</code>):
      </p>
      <pre className="snippet">
        <code>{`export CRAWL_API_KEY=${secret.slice(0, 13)}…\n${curlSnippet(projectId)}`}</code>
      </pre>
      <Button onPress={onDone} autoFocus>
        Done
      </Button>
    </div>
  );
}

function CreateKeyDialog({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const [label, setLabel] = useState('');
  const [scope, setScope] = useState<'full' | 'read'>('full');
  const [expiresAt, setExpiresAt] = useState('');
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/account/projects/{projectId}/keys', {
          params: { path: { projectId } },
          body: { label, scope, ...(expiresAt ? { expiresAt: new Date(`${expiresAt}T23:59:59`).toISOString() } : {}) },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['keys', projectId] }),
  });
  const fields = create.error instanceof ApiError ? create.error.fieldErrors() : {};
  return (
    <DialogTrigger onOpenChange={(open) => !open && (create.reset(), setLabel(''), setScope('full'), setExpiresAt(''))}>
      <Button>Create API key</Button>
      <Modal className="modal" isDismissable>
        <Dialog className="dialog">
          {({ close }) =>
            create.data ? (
              <>
                <Heading slot="title">Your new key</Heading>
                <SecretPanel secret={create.data.data.secret} projectId={projectId} onDone={close} />
              </>
            ) : (
              <Form
                onSubmit={(e) => {
                  e.preventDefault();
                  // not a disabled button while saving: a disabled button drops the focus out of the dialog
                  if (!create.isPending) create.mutate();
                }}
              >
                <Heading slot="title">Create API key</Heading>
                <Field
                  label="Label"
                  description="What the key is for, e.g. “price monitor”."
                  isRequired
                  autoFocus
                  value={label}
                  onChange={setLabel}
                  error={fields.label}
                />
                <RadioGroup value={scope} onChange={(v) => setScope(v as 'full' | 'read')} className="radios">
                  <Label>Access</Label>
                  <Radio value="full">Full access</Radio>
                  <Radio value="read">Read only</Radio>
                </RadioGroup>
                <div className="field">
                  <label htmlFor="key-expiry">Expires (optional)</label>
                  <input id="key-expiry" type="date" value={expiresAt} onChange={(e) => setExpiresAt(e.target.value)} />
                  {fields.expiresAt && <span className="field-error">{fields.expiresAt}</span>}
                </div>
                <ErrorNotice error={Object.keys(fields).length ? null : create.error} />
                <div className="row">
                  <Button type="submit">Create key</Button>
                  <Button variant="secondary" onPress={close}>
                    Cancel
                  </Button>
                </div>
              </Form>
            )
          }
        </Dialog>
      </Modal>
    </DialogTrigger>
  );
}

function RotateDialog({ keyRow, projectId }: { keyRow: Key; projectId: string }) {
  const queryClient = useQueryClient();
  const [overlap, setOverlap] = useState('3600');
  const rotate = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/account/keys/{keyId}/rotate', { params: { path: { keyId: keyRow.id } }, body: { overlapSeconds: Number(overlap) } }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['keys', projectId] }),
  });
  return (
    <DialogTrigger onOpenChange={(open) => !open && rotate.reset()}>
      <Button variant="secondary">Rotate</Button>
      <Modal className="modal" isDismissable>
        <Dialog className="dialog">
          {({ close }) =>
            rotate.data ? (
              <>
                <Heading slot="title">Rotated: the new key</Heading>
                <SecretPanel secret={rotate.data.data.secret} projectId={projectId} onDone={close} />
              </>
            ) : (
              <Form
                onSubmit={(e) => {
                  e.preventDefault();
                  if (!rotate.isPending) rotate.mutate();
                }}
              >
                <Heading slot="title">Rotate “{keyRow.label || keyRow.prefix}”</Heading>
                <p>
                  A new key with the same label and scope replaces it. The old key keeps working for the overlap, so your deployments can
                  switch.
                </p>
                <div className="field">
                  <label htmlFor="overlap">Overlap</label>
                  <select id="overlap" value={overlap} onChange={(e) => setOverlap(e.target.value)}>
                    <option value="0">None: revoke the old key now</option>
                    <option value="600">10 minutes</option>
                    <option value="3600">1 hour</option>
                    <option value="86400">24 hours</option>
                  </select>
                </div>
                <ErrorNotice error={rotate.error} />
                <div className="row">
                  <Button type="submit">Rotate key</Button>
                  <Button variant="secondary" onPress={close}>
                    Cancel
                  </Button>
                </div>
              </Form>
            )
          }
        </Dialog>
      </Modal>
    </DialogTrigger>
  );
}

function RevokeDialog({ keyRow, projectId }: { keyRow: Key; projectId: string }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => unwrap(api.DELETE('/v1/account/keys/{keyId}', { params: { path: { keyId: keyRow.id } } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['keys', projectId] }),
  });
  return (
    <DialogTrigger>
      <Button variant="danger">Revoke</Button>
      <Modal className="modal" isDismissable>
        <Dialog className="dialog" role="alertdialog">
          {({ close }) => (
            <>
              <Heading slot="title">Revoke “{keyRow.label || keyRow.prefix}”?</Heading>
              <p>Requests with this key stop working at once, everywhere. This cannot be undone.</p>
              <ErrorNotice error={revoke.error} />
              <div className="row">
                <Button variant="danger" onPress={() => !revoke.isPending && revoke.mutate(undefined, { onSuccess: close })}>
                  Revoke key
                </Button>
                <Button variant="secondary" onPress={close} autoFocus>
                  Cancel
                </Button>
              </div>
            </>
          )}
        </Dialog>
      </Modal>
    </DialogTrigger>
  );
}

const isLive = (k: Key) => !k.revokedAt || new Date(k.revokedAt) > new Date();

export function KeysPage() {
  const { projectId } = useParams({ strict: false }) as { projectId: string };
  useProjectOfPage(projectId);
  const keys = useQuery(keysQuery(projectId));
  return (
    <>
      <div className="page-head">
        <h1>API keys</h1>
        <CreateKeyDialog projectId={projectId} />
      </div>
      <p className="muted">Keys authenticate your scripts and integrations to this project. A read-only key may only make GET requests.</p>
      {keys.isLoading && <Loading what="keys" />}
      <ErrorNotice error={keys.error} />
      {keys.data && keys.data.length === 0 && (
        <EmptyState title="No keys yet">
          <p>Create one to call the API from your code.</p>
        </EmptyState>
      )}
      {keys.data && keys.data.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">API keys of this project</caption>
            <thead>
              <tr>
                <th scope="col">Label</th>
                <th scope="col">Key</th>
                <th scope="col">Scope</th>
                <th scope="col">Created by</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((k) => (
                <tr key={k.id}>
                  <td>{k.label || <span className="muted">(no label)</span>}</td>
                  <td className="mono">{k.prefix}…</td>
                  <td>
                    {k.scope === 'read'
                      ? 'Read only'
                      : k.effectiveScope === 'read'
                        ? 'Read only (its creator is a viewer now)'
                        : 'Full access'}
                  </td>
                  <td>{k.createdByEmail ?? 'operator'}</td>
                  <td>
                    <DateTime value={k.lastUsedAt} />
                  </td>
                  <td>
                    <DateTime value={k.expiresAt} />
                  </td>
                  <td>
                    {isLive(k) ? (
                      k.revokedAt ? (
                        <>
                          Until <DateTime value={k.revokedAt} />
                        </>
                      ) : (
                        'Active'
                      )
                    ) : (
                      'Revoked'
                    )}
                  </td>
                  <td className="actions">
                    {isLive(k) && (
                      <>
                        <RotateDialog keyRow={k} projectId={projectId} />
                        <RevokeDialog keyRow={k} projectId={projectId} />
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
