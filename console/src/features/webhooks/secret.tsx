import { Label, Radio, RadioGroup } from 'react-aria-components';
import { Field } from '../../ui/forms';
import { SecretField } from '../../ui/secret-field';

/** A signing secret in the service's own format (`whsec_` + 256 random bits), made in the browser. */
export function generateSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const base64 = btoa(String.fromCharCode(...bytes));
  return `whsec_${base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}

export type SecretChoice = { mode: 'generate' } | { mode: 'own'; value: string };

/** "Generate one" or "Enter my own": how a new endpoint or a rotation gets its secret. */
export function SecretChoiceField({
  value,
  onChange,
  error,
}: {
  value: SecretChoice;
  onChange: (v: SecretChoice) => void;
  error?: string;
}) {
  return (
    <>
      <RadioGroup
        value={value.mode}
        onChange={(mode) => onChange(mode === 'own' ? { mode: 'own', value: '' } : { mode: 'generate' })}
        className="radios"
      >
        <Label>Signing secret</Label>
        <Radio value="generate">Generate a strong secret</Radio>
        <Radio value="own">Enter my own</Radio>
      </RadioGroup>
      {value.mode === 'own' && (
        <Field
          label="Secret"
          description="At most 256 characters. Your receiver verifies each delivery's signature with it."
          isRequired
          value={value.value}
          onChange={(v) => onChange({ mode: 'own', value: v })}
          error={error}
        />
      )}
    </>
  );
}

/** A signing secret shown in full once, right after it was set, with a copy button. */
export function SecretOnce({ secret, label = 'Signing secret' }: { secret: string; label?: string }) {
  return (
    <div className="secret">
      <SecretField secret={secret} label={label} copyLabel="Copy secret" />
    </div>
  );
}
