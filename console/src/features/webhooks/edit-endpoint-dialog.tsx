import { useState } from 'react';
import { FormDialog } from '../../ui/form-dialog';
import { Button, Field } from '../../ui/forms';
import { configIssue } from './config-issues';
import { EVENTS, useReplaceWebhooks, type WebhookConfig, type WebhookEvent, withChanged } from './webhooks.queries';

/** Name, URL and event of one configuration; its signing secret stays as it is. */
export function EditEndpointDialog({ projectId, config }: { projectId: string; config: WebhookConfig }) {
  const replace = useReplaceWebhooks(projectId);
  const [name, setName] = useState(config.name ?? '');
  const [url, setUrl] = useState(config.url);
  const [event, setEvent] = useState<WebhookEvent>(config.triggerAction);
  const [index, setIndex] = useState(-1);
  const urlError = configIssue(replace.error, [index], 'url');
  return (
    <FormDialog
      trigger={
        <Button variant="secondary" aria-describedby={`webhook-${config.id}`}>
          Edit
        </Button>
      }
      title="Edit endpoint"
      submitLabel="Save"
      onOpenChange={(open) => {
        if (!open) return replace.reset();
        setName(config.name ?? '');
        setUrl(config.url);
        setEvent(config.triggerAction);
      }}
      onSubmit={(close) =>
        replace.mutate(
          (configs) => {
            setIndex(configs.findIndex((c) => c.id === config.id));
            // the secret goes back unchanged: editing is not a rotation
            return withChanged(configs, config.id, (c) => ({ ...c, name: name.trim() || null, url: url.trim(), triggerAction: event }));
          },
          { onSuccess: close },
        )
      }
      isPending={replace.isPending}
      error={urlError ? null : replace.error}
    >
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
    </FormDialog>
  );
}
