import { useState } from 'react';
import { useWrite } from '../../api/use-write';
import { FormDialog } from '../../ui/form-dialog';
import { Button } from '../../ui/forms';
import { type Key, keyKeys, rotateKey } from './keys.queries';
import { SecretPanel } from './secret-panel';

/** A new key with the same label and scope; the old one keeps working for the overlap chosen. */
export function RotateKeyDialog({ keyRow, projectId }: { keyRow: Key; projectId: string }) {
  const [overlap, setOverlap] = useState('3600');
  const rotate = useWrite(() => rotateKey(keyRow.id, Number(overlap)), keyKeys.ofProject(projectId));
  const rotated = rotate.data?.data;
  return (
    <FormDialog
      trigger={<Button variant="secondary">Rotate</Button>}
      title={`Rotate “${keyRow.label || keyRow.prefix}”`}
      submitLabel="Rotate key"
      onOpenChange={(open) => !open && rotate.reset()}
      onSubmit={() => rotate.mutate()}
      isPending={rotate.isPending}
      pendingStyle="none"
      error={rotate.error}
      done={
        rotated && {
          title: 'Rotated: the new key',
          content: (close) => <SecretPanel secret={rotated.secret} projectId={projectId} onDone={close} />,
        }
      }
    >
      <p>A new key with the same label and scope replaces it. The old key keeps working for the overlap, so your deployments can switch.</p>
      <div className="field">
        <label htmlFor="overlap">Overlap</label>
        <select id="overlap" value={overlap} onChange={(e) => setOverlap(e.target.value)}>
          <option value="0">None: revoke the old key now</option>
          <option value="600">10 minutes</option>
          <option value="3600">1 hour</option>
          <option value="86400">24 hours</option>
        </select>
      </div>
    </FormDialog>
  );
}
