import { useState } from 'react';
import { Input, Label, TextField } from 'react-aria-components';
import { Button } from './forms';

/** A button that copies `text`, and says so in a status beside it. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="row">
      <Button
        variant="secondary"
        onPress={async () => {
          await navigator.clipboard?.writeText(text).catch(() => undefined);
          setCopied(true);
        }}
      >
        {label}
      </Button>
      <span role="status">{copied ? 'Copied.' : ''}</span>
    </div>
  );
}

/** A secret shown in full once, right after it was made: a read-only field (selected on focus) and a copy button. */
export function SecretField({ secret, label, copyLabel }: { secret: string; label: string; copyLabel: string }) {
  return (
    <>
      <TextField isReadOnly value={secret} className="field">
        <Label>{label}</Label>
        <Input className="mono" onFocus={(e) => e.currentTarget.select()} />
      </TextField>
      <CopyButton text={secret} label={copyLabel} />
    </>
  );
}
