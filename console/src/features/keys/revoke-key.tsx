import { useWrite } from '../../api/use-write';
import { ConfirmAction } from '../../ui/confirm-action';
import { type Key, keyKeys, revokeKey } from './keys.queries';

export function RevokeKey({ keyRow, projectId }: { keyRow: Key; projectId: string }) {
  const revoke = useWrite(() => revokeKey(keyRow.id), keyKeys.ofProject(projectId));
  return (
    <ConfirmAction
      label="Revoke"
      title={`Revoke “${keyRow.label || keyRow.prefix}”?`}
      confirmLabel="Revoke key"
      action={revoke}
      keepError
      pendingStyle="none"
    >
      <p>Requests with this key stop working at once, everywhere. This cannot be undone.</p>
    </ConfirmAction>
  );
}
