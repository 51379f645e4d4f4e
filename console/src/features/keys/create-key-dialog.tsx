import { useState } from 'react';
import { Label, Radio, RadioGroup } from 'react-aria-components';
import { fieldErrorsOf } from '../../api/client';
import { useWrite } from '../../api/use-write';
import { FormDialog } from '../../ui/form-dialog';
import { Button, Field } from '../../ui/forms';
import { createKey, keyKeys } from './keys.queries';
import { SecretPanel } from './secret-panel';

export function CreateKeyDialog({ projectId }: { projectId: string }) {
  const [label, setLabel] = useState('');
  const [scope, setScope] = useState<'full' | 'read'>('full');
  const [expiresAt, setExpiresAt] = useState('');
  const create = useWrite(
    () => createKey(projectId, { label, scope, ...(expiresAt ? { expiresAt: new Date(`${expiresAt}T23:59:59`).toISOString() } : {}) }),
    keyKeys.ofProject(projectId),
  );
  const fields = fieldErrorsOf(create.error);
  const created = create.data?.data;
  return (
    <FormDialog
      trigger={<Button>Create API key</Button>}
      title="Create API key"
      submitLabel="Create key"
      onOpenChange={(open) => !open && (create.reset(), setLabel(''), setScope('full'), setExpiresAt(''))}
      onSubmit={() => create.mutate()}
      isPending={create.isPending}
      // not a disabled button while saving: a disabled button drops the focus out of the dialog
      pendingStyle="none"
      error={Object.keys(fields).length ? null : create.error}
      done={
        created && {
          title: 'Your new key',
          content: (close) => <SecretPanel secret={created.secret} projectId={projectId} onDone={close} />,
        }
      }
    >
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
    </FormDialog>
  );
}
