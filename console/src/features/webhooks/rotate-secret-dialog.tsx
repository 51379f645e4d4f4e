import { useState } from 'react';
import { FormDialog } from '../../ui/form-dialog';
import { Button } from '../../ui/forms';
import { DateTime } from '../../ui/time';
import { configIssue } from './config-issues';
import { generateSecret, type SecretChoice, SecretChoiceField, SecretOnce } from './secret';
import { useReplaceWebhooks, type WebhookConfig, withChanged } from './webhooks.queries';

/** A new signing secret for one configuration; the old one keeps signing for the grace period. */
export function RotateSecretDialog({ projectId, config }: { projectId: string; config: WebhookConfig }) {
  const replace = useReplaceWebhooks(projectId);
  const [secret, setSecret] = useState<SecretChoice>({ mode: 'generate' });
  const [index, setIndex] = useState(-1);
  const rotated = replace.data?.find((c) => c.id === config.id);
  const secretError = configIssue(replace.error, [index], 'secret');
  return (
    <FormDialog
      trigger={
        <Button variant="secondary" aria-describedby={`webhook-${config.id}`}>
          Rotate secret
        </Button>
      }
      title="Rotate the signing secret"
      submitLabel="Rotate secret"
      onOpenChange={(open) => !open && (replace.reset(), setSecret({ mode: 'generate' }))}
      onSubmit={() => {
        const next = secret.mode === 'own' ? secret.value : generateSecret();
        replace.mutate((configs) => {
          setIndex(configs.findIndex((c) => c.id === config.id));
          return withChanged(configs, config.id, (c) => ({ ...c, secret: next }));
        });
      }}
      isPending={replace.isPending}
      error={secretError ? null : replace.error}
      done={
        rotated && {
          title: 'Secret rotated',
          content: (close) => (
            <>
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
          ),
        }
      }
    >
      <p>
        Of <span className="mono">{config.url}</span> ({config.triggerAction}). For a grace period (24 hours unless your operator changed
        it) every delivery carries two signatures, one with the new secret and one with the old, so your receiver can switch without missing
        a delivery. Rotating again during the grace period drops the oldest secret.
      </p>
      <SecretChoiceField value={secret} onChange={setSecret} error={secretError} />
    </FormDialog>
  );
}
