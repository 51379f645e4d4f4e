import { useState } from 'react';
import { Input, Label, TextField } from 'react-aria-components';
import { Button } from './forms';

/** A secret shown in full once, right after it was made: a read-only field (selected on focus) and a copy button. */
export function SecretField({ secret, label, copyLabel }: { secret: string; label: string; copyLabel: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <>
      <TextField isReadOnly value={secret} className="field">
        <Label>{label}</Label>
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
          {copyLabel}
        </Button>
        <span role="status">{copied ? 'Copied.' : ''}</span>
      </div>
    </>
  );
}
