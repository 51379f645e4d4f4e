import { useState } from 'react';
import { FormDialog } from '../../ui/form-dialog';
import { Button, Field } from '../../ui/forms';
import { configIssue } from './config-issues';
import { generateSecret, type SecretChoice, SecretChoiceField, SecretOnce } from './secret';
import { asInput, EVENTS, useReplaceWebhooks, type WebhookConfig, type WebhookEvent } from './webhooks.queries';

const eventLabel = (e: WebhookEvent) => EVENTS.find((x) => x.value === e)?.label ?? e;

/** A new endpoint: one configuration per event chosen, all with the same URL and signing secret. */
export function AddEndpointDialog({ projectId }: { projectId: string }) {
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
  /** A setter that also drops the API's answer, which was about the form as it was. */
  const edited =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      if (replace.error) replace.reset();
    };
  const urlError = configIssue(replace.error, newIndexes, 'url');
  const secretError = configIssue(replace.error, newIndexes, 'secret');
  return (
    <FormDialog
      trigger={<Button>Add endpoint</Button>}
      title="Add endpoint"
      submitLabel="Add endpoint"
      onOpenChange={(open) => !open && reset()}
      onSubmit={submit}
      isPending={replace.isPending}
      isSubmitDisabled={events.length === 0}
      error={urlError || secretError ? null : replace.error}
      done={
        added && {
          title: 'Endpoint added',
          content: (close) => (
            <>
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
          ),
        }
      }
    >
      <Field
        label="URL"
        description="An http(s) address that answers 2xx to a POST. Only 2xx counts as delivered."
        type="url"
        isRequired
        autoFocus
        value={url}
        onChange={edited(setUrl)}
        placeholder="https://example.com/webhooks/crawl"
        error={urlError}
      />
      <Field label="Name (optional)" value={name} onChange={edited(setName)} />
      <fieldset className="checks">
        <legend>Events</legend>
        {EVENTS.map((e) => (
          <label key={e.value}>
            <input
              type="checkbox"
              checked={events.includes(e.value)}
              onChange={(ev) =>
                edited(setEvents)((prev) =>
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
      <SecretChoiceField value={secret} onChange={edited(setSecret)} error={secretError} />
    </FormDialog>
  );
}
