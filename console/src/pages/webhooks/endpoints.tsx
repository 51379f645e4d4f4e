import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Dialog, DialogTrigger, Form, Heading, Modal } from 'react-aria-components';
import { api, ApiError, type Schemas, unwrap } from '../../api/client';
import { Button, EmptyState, ErrorNotice, Field, Loading } from '../../ui/forms';
import { DateTime } from '../../ui/time';
import { ConfirmButton } from '../members/confirm';
import { asInput, EVENTS, type WebhookConfig, type WebhookEvent, webhooksQuery, useReplaceWebhooks } from './configs';
import { generateSecret, type SecretChoice, SecretChoiceField, SecretOnce } from './secret';

const eventLabel = (e: WebhookEvent) => EVENTS.find((x) => x.value === e)?.label ?? e;

/**
 * The API's problem with one field of the configs it was sent (`body.configs.3.url`), for the
 * configs at the given indexes: the dialog shows it next to its field.
 */
function configIssue(error: unknown, indexes: number[], field: string): string | undefined {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return undefined;
  for (const issue of error.details as Array<{ path?: string; message?: string }>) {
    const [, , index, name] = String(issue.path ?? '').split('.');
    if (name === field && indexes.includes(Number(index))) return issue.message;
  }
  return undefined;
}

function AddEndpointDialog({ projectId }: { projectId: string }) {
  const replace = useReplaceWebhooks(projectId);
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['job.completed']);
  const [secret, setSecret] = useState<SecretChoice>({ mode: 'generate' });
  const [added, setAdded] = useState<{ secret: string; configs: WebhookConfig[] } | null>(null);
  const [firstNew, setFirstNew] = useState(0);
  const newIndexes = events.map((_, i) => firstNew + i);

  const reset = () => {
    replace.reset();
    setName('');
    setUrl('');
    setEvents(['job.completed']);
    setSecret({ mode: 'generate' });
    setAdded(null);
  };
  const submit = () => {
    if (replace.isPending) return;
    // one configuration per event, all with the same URL and secret: one secret for the receiver to know
    const signingSecret = secret.mode === 'own' ? secret.value : generateSecret();
    replace.mutate(
      (configs) => {
        setFirstNew(configs.length);
        return [
          ...configs.map(asInput),
          ...events.map((triggerAction) => ({
            name: name.trim() || null,
            url: url.trim(),
            triggerAction,
            enabled: true,
            secret: signingSecret,
          })),
        ];
      },
      {
        onSuccess: (configs) =>
          setAdded({ secret: signingSecret, configs: configs.filter((c) => c.url === url.trim() && c.secret === signingSecret) }),
      },
    );
  };
  const urlError = configIssue(replace.error, newIndexes, 'url');
  const secretError = configIssue(replace.error, newIndexes, 'secret');
  return (
    <DialogTrigger onOpenChange={(open) => !open && reset()}>
      <Button>Add endpoint</Button>
      <Modal className="modal" isDismissable>
        <Dialog className="dialog">
          {({ close }) =>
            added ? (
              <>
                <Heading slot="title">Endpoint added</Heading>
                <p>
                  {added.configs.length === 1 ? 'It receives' : 'It receives, as one configuration per event,'}{' '}
                  {added.configs.map((c) => eventLabel(c.triggerAction)).join(', ')}. Copy the signing secret now: your receiver needs it to
                  verify each delivery.
                </p>
                <SecretOnce secret={added.secret} />
                <Button onPress={close} autoFocus>
                  Done
                </Button>
              </>
            ) : (
              <Form
                onSubmit={(e) => {
                  e.preventDefault();
                  submit();
                }}
              >
                <Heading slot="title">Add endpoint</Heading>
                <Field
                  label="URL"
                  description="An http(s) address that answers 2xx to a POST. Only 2xx counts as delivered."
                  type="url"
                  isRequired
                  autoFocus
                  value={url}
                  onChange={setUrl}
                  placeholder="https://example.com/webhooks/crawl"
                  error={urlError}
                />
                <Field label="Name (optional)" value={name} onChange={setName} />
                <fieldset className="checks">
                  <legend>Events</legend>
                  {EVENTS.map((e) => (
                    <label key={e.value}>
                      <input
                        type="checkbox"
                        checked={events.includes(e.value)}
                        onChange={(ev) =>
                          setEvents((prev) =>
                            ev.target.checked
                              ? EVENTS.map((x) => x.value).filter((v) => v === e.value || prev.includes(v))
                              : prev.filter((v) => v !== e.value),
                          )
                        }
                      />{' '}
                      {e.label} <code>{e.value}</code>
                    </label>
                  ))}
                  {events.length === 0 && <span className="field-error">Choose at least one event.</span>}
                </fieldset>
                <SecretChoiceField value={secret} onChange={setSecret} error={secretError} />
                <ErrorNotice error={urlError || secretError ? null : replace.error} />
                <div className="row">
                  <Button type="submit" isPending={replace.isPending} isDisabled={events.length === 0}>
                    Add endpoint
                  </Button>
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

function EditEndpointDialog({ projectId, config }: { projectId: string; config: WebhookConfig }) {
  const replace = useReplaceWebhooks(projectId);
  const [name, setName] = useState(config.name ?? '');
  const [url, setUrl] = useState(config.url);
  const [event, setEvent] = useState<WebhookEvent>(config.triggerAction);
  const [index, setIndex] = useState(-1);
  const urlError = configIssue(replace.error, [index], 'url');
  return (
    <DialogTrigger
      onOpenChange={(open) => {
        if (!open) return replace.reset();
        setName(config.name ?? '');
        setUrl(config.url);
        setEvent(config.triggerAction);
      }}
    >
      <Button variant="secondary" aria-describedby={`webhook-${config.id}`}>
        Edit
      </Button>
      <Modal className="modal" isDismissable>
        <Dialog className="dialog">
          {({ close }) => (
            <Form
              onSubmit={(e) => {
                e.preventDefault();
                if (replace.isPending) return;
                replace.mutate(
                  (configs) => {
                    setIndex(configs.findIndex((c) => c.id === config.id));
                    // the secret goes back unchanged: editing is not a rotation
                    return configs.map((c) =>
                      c.id === config.id ? { ...asInput(c), name: name.trim() || null, url: url.trim(), triggerAction: event } : asInput(c),
                    );
                  },
                  { onSuccess: close },
                );
              }}
            >
              <Heading slot="title">Edit endpoint</Heading>
              <Field label="URL" type="url" isRequired autoFocus value={url} onChange={setUrl} error={urlError} />
              <Field label="Name (optional)" value={name} onChange={setName} />
              <div className="field">
                <label htmlFor={`edit-event-${config.id}`}>Event</label>
                <select id={`edit-event-${config.id}`} value={event} onChange={(e) => setEvent(e.target.value as WebhookEvent)}>
                  {EVENTS.map((e) => (
                    <option key={e.value} value={e.value}>
                      {e.label}
                    </option>
                  ))}
                </select>
              </div>
              <p className="muted">The signing secret stays as it is; use Rotate secret to change it.</p>
              <ErrorNotice error={urlError ? null : replace.error} />
              <div className="row">
                <Button type="submit" isPending={replace.isPending}>
                  Save
                </Button>
                <Button variant="secondary" onPress={close}>
                  Cancel
                </Button>
              </div>
            </Form>
          )}
        </Dialog>
      </Modal>
    </DialogTrigger>
  );
}

function RotateSecretDialog({ projectId, config }: { projectId: string; config: WebhookConfig }) {
  const replace = useReplaceWebhooks(projectId);
  const [secret, setSecret] = useState<SecretChoice>({ mode: 'generate' });
  const [index, setIndex] = useState(-1);
  const rotated = replace.data?.find((c) => c.id === config.id);
  const secretError = configIssue(replace.error, [index], 'secret');
  return (
    <DialogTrigger onOpenChange={(open) => !open && (replace.reset(), setSecret({ mode: 'generate' }))}>
      <Button variant="secondary" aria-describedby={`webhook-${config.id}`}>
        Rotate secret
      </Button>
      <Modal className="modal" isDismissable>
        <Dialog className="dialog">
          {({ close }) =>
            rotated ? (
              <>
                <Heading slot="title">Secret rotated</Heading>
                <p>
                  Deliveries are now signed with the new secret
                  {rotated.previousSecretExpiresAt ? (
                    <>
                      {' '}
                      and, until <DateTime value={rotated.previousSecretExpiresAt} />, with the previous one too
                    </>
                  ) : null}
                  : switch your receiver to the new secret before then.
                </p>
                <SecretOnce secret={rotated.secret} label="New signing secret" />
                <Button onPress={close} autoFocus>
                  Done
                </Button>
              </>
            ) : (
              <Form
                onSubmit={(e) => {
                  e.preventDefault();
                  if (replace.isPending) return;
                  const next = secret.mode === 'own' ? secret.value : generateSecret();
                  replace.mutate((configs) => {
                    setIndex(configs.findIndex((c) => c.id === config.id));
                    return configs.map((c) => (c.id === config.id ? { ...asInput(c), secret: next } : asInput(c)));
                  });
                }}
              >
                <Heading slot="title">Rotate the signing secret</Heading>
                <p>
                  Of <span className="mono">{config.url}</span> ({config.triggerAction}). For a grace period (24 hours unless your operator
                  changed it) every delivery carries two signatures, one with the new secret and one with the old, so your receiver can
                  switch without missing a delivery. Rotating again during the grace period drops the oldest secret.
                </p>
                <SecretChoiceField value={secret} onChange={setSecret} error={secretError} />
                <ErrorNotice error={secretError ? null : replace.error} />
                <div className="row">
                  <Button type="submit" isPending={replace.isPending}>
                    Rotate secret
                  </Button>
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

function DeleteEndpoint({ projectId, config }: { projectId: string; config: WebhookConfig }) {
  const replace = useReplaceWebhooks(projectId);
  return (
    <ConfirmButton
      label="Delete"
      describedBy={`webhook-${config.id}`}
      title="Delete this endpoint?"
      confirmLabel="Delete endpoint"
      onOpenChange={(open) => !open && replace.reset()}
      isPending={replace.isPending}
      error={replace.error}
      onConfirm={() => replace.mutateAsync((configs) => configs.filter((c) => c.id !== config.id).map(asInput))}
    >
      <p>
        <span className="mono">{config.url}</span> stops receiving {config.triggerAction} events. Its deliveries not made yet are cancelled;
        the delivery log keeps what was sent.
      </p>
    </ConfirmButton>
  );
}

/** Disable keeps the configuration (and its secret) but sends nothing; enable also clears a disabling by the service. */
function ToggleEndpoint({ projectId, config, onError }: { projectId: string; config: WebhookConfig; onError: (e: unknown) => void }) {
  const replace = useReplaceWebhooks(projectId);
  return (
    <Button
      variant="secondary"
      aria-describedby={`webhook-${config.id}`}
      isPending={replace.isPending}
      onPress={() =>
        replace.mutate((configs) => configs.map((c) => (c.id === config.id ? { ...asInput(c), enabled: !config.enabled } : asInput(c))), {
          onError,
          onSuccess: () => onError(null),
        })
      }
    >
      {config.enabled ? 'Disable' : 'Enable'}
    </Button>
  );
}

function MaskedSecret({ config }: { config: WebhookConfig }) {
  const [shown, setShown] = useState(false);
  return (
    <div className="secret-cell">
      <span className="mono">{shown ? config.secret : `${config.secret.slice(0, 6)}••••••••`}</span>
      <Button variant="secondary" aria-describedby={`webhook-${config.id}`} onPress={() => setShown((s) => !s)}>
        {shown ? 'Hide secret' : 'Show secret'}
      </Button>
      {config.previousSecretExpiresAt && new Date(config.previousSecretExpiresAt) > new Date() && (
        <span className="muted">
          Rotating: the previous secret also signs until <DateTime value={config.previousSecretExpiresAt} />
        </span>
      )}
    </div>
  );
}

type TestResult = { config: WebhookConfig; result: Schemas['WebhookTestResult'] };

function State({ config }: { config: WebhookConfig }) {
  if (config.enabled) return <span className="badge ok">Enabled</span>;
  if (config.disabledAt)
    return (
      <>
        <span className="badge bad">Disabled by the service</span>
        <span className="muted block">
          {config.disabledReason ?? 'every delivery failed'} (<DateTime value={config.disabledAt} />)
        </span>
      </>
    );
  return <span className="badge warn">Disabled</span>;
}

/** The project's endpoints: one row per configuration (a URL and the event it receives). */
export function Endpoints({ projectId, canWrite }: { projectId: string; canWrite: boolean }) {
  const webhooks = useQuery(webhooksQuery(projectId));
  const [tested, setTested] = useState<TestResult | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const test = useMutation({
    mutationFn: async (config: WebhookConfig) => {
      setTested(null);
      const { data } = await unwrap(
        api.POST('/v1/key/projects/{projectId}/webhooks/test', { params: { path: { projectId } }, body: { webhookId: config.id } }),
      );
      return { config, result: data };
    },
    onSuccess: setTested,
  });
  const configs = webhooks.data?.configs ?? [];
  return (
    <section aria-labelledby="endpoints-heading">
      <div className="page-head">
        <h2 id="endpoints-heading">Endpoints</h2>
        {canWrite && <AddEndpointDialog projectId={projectId} />}
      </div>
      {webhooks.isLoading && <Loading what="endpoints" />}
      <ErrorNotice error={webhooks.error} />
      {webhooks.data && configs.length === 0 && (
        <EmptyState title="No endpoints yet">
          <p>
            {canWrite
              ? 'Add one to be told when jobs finish, schedules fire or tracked products change.'
              : 'An owner, admin or developer can add one.'}
          </p>
        </EmptyState>
      )}
      {configs.length > 0 && (
        <div className="table-wrap contained">
          <table>
            <caption className="visually-hidden">Webhook endpoints of this project</caption>
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col">Event</th>
                <th scope="col">State</th>
                <th scope="col">Secret</th>
                {canWrite && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {configs.map((c) => (
                <tr key={c.id}>
                  <td id={`webhook-${c.id}`}>
                    {c.name && <strong className="block">{c.name}</strong>}
                    <span className="mono url">{c.url}</span>
                    <span className="muted mono block">{c.id}</span>
                  </td>
                  <td>
                    <code>{c.triggerAction}</code>
                  </td>
                  <td>
                    <State config={c} />
                  </td>
                  <td>
                    <MaskedSecret config={c} />
                  </td>
                  {canWrite && (
                    <td>
                      <div className="actions-wrap">
                        <Button
                          variant="secondary"
                          aria-describedby={`webhook-${c.id}`}
                          isPending={test.isPending && test.variables?.id === c.id}
                          onPress={() => test.mutate(c)}
                        >
                          Send test
                        </Button>
                        <EditEndpointDialog projectId={projectId} config={c} />
                        <ToggleEndpoint projectId={projectId} config={c} onError={setActionError} />
                        <RotateSecretDialog projectId={projectId} config={c} />
                        <DeleteEndpoint projectId={projectId} config={c} />
                      </div>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ErrorNotice error={actionError} />
      <ErrorNotice error={test.error} title="The test could not be sent." />
      <div role="status" className="test-result">
        {test.isPending && <p className="muted">Sending a test delivery to {test.variables?.url}…</p>}
        {tested && (
          <p className={`notice ${tested.result.success ? 'ok' : 'error'}`}>
            Test {tested.result.event} to <span className="mono">{tested.config.url}</span>:{' '}
            {tested.result.statusCode !== null ? <strong>HTTP {tested.result.statusCode}</strong> : <strong>no HTTP answer</strong>} in{' '}
            {tested.result.durationMs} ms{tested.result.error && tested.result.statusCode === null ? ` (${tested.result.error})` : ''}.{' '}
            {tested.result.success ? 'The receiver accepted it.' : 'The receiver did not answer 2xx.'}{' '}
            <span className="muted">
              Delivery <span className="mono">{tested.result.deliveryId}</span>
            </span>
          </p>
        )}
      </div>
    </section>
  );
}
