import { useState } from 'react';
import { ConfirmAction } from '../../ui/confirm-action';
import { Button } from '../../ui/forms';
import { DateTime } from '../../ui/time';
import { asInput, useReplaceWebhooks, type WebhookConfig, withChanged } from './webhooks.queries';

export function DeleteEndpoint({ projectId, config }: { projectId: string; config: WebhookConfig }) {
  const replace = useReplaceWebhooks(projectId);
  return (
    <ConfirmAction
      label="Delete"
      describedBy={`webhook-${config.id}`}
      title="Delete this endpoint?"
      confirmLabel="Delete endpoint"
      action={{ ...replace, mutateAsync: () => replace.mutateAsync((configs) => configs.filter((c) => c.id !== config.id).map(asInput)) }}
    >
      <p>
        <span className="mono">{config.url}</span> stops receiving {config.triggerAction} events. Its deliveries not made yet are cancelled;
        the delivery log keeps what was sent.
      </p>
    </ConfirmAction>
  );
}

/** Disable keeps the configuration (and its secret) but sends nothing; enable also clears a disabling by the service. */
export function ToggleEndpoint({
  projectId,
  config,
  onError,
}: {
  projectId: string;
  config: WebhookConfig;
  onError: (e: unknown) => void;
}) {
  const replace = useReplaceWebhooks(projectId);
  return (
    <Button
      variant="secondary"
      aria-describedby={`webhook-${config.id}`}
      isPending={replace.isPending}
      onPress={() =>
        replace.mutate((configs) => withChanged(configs, config.id, (c) => ({ ...c, enabled: !config.enabled })), {
          onError,
          onSuccess: () => onError(null),
        })
      }
    >
      {config.enabled ? 'Disable' : 'Enable'}
    </Button>
  );
}

export function MaskedSecret({ config }: { config: WebhookConfig }) {
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

export function EndpointState({ config }: { config: WebhookConfig }) {
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
