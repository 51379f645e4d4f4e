import type { ReactNode } from 'react';
import {
  Button as AriaButton,
  type ButtonProps,
  FieldError,
  Input,
  Label,
  Text,
  TextArea,
  TextField,
  type TextFieldProps,
} from 'react-aria-components';
import { ApiError } from '../api/client';

/** A button (react-aria: keyboard, press and focus handling done right). */
export function Button({ variant = 'primary', ...props }: ButtonProps & { variant?: 'primary' | 'secondary' | 'danger' }) {
  return <AriaButton {...props} className={`button ${variant}`} />;
}

interface FieldProps extends Omit<TextFieldProps, 'children'> {
  label: string;
  description?: string;
  /** The API's message for this field, shown next to it. */
  error?: string;
  multiline?: boolean;
  placeholder?: string;
  rows?: number;
}

/**
 * A labelled text field whose error (ours or the API's) is announced with it. Validation is ARIA
 * only: under native validation react-aria would turn `error` into the input's custom validity,
 * and the browser would then refuse every later submit, so the form could never send the
 * corrected value that clears it (docs/console.md, "Forms and the API's errors").
 */
export function Field({ label, description, error, multiline, placeholder, rows, ...props }: FieldProps) {
  return (
    <TextField {...props} validationBehavior="aria" isInvalid={!!error || props.isInvalid} className="field">
      <Label>{label}</Label>
      {multiline ? <TextArea placeholder={placeholder} rows={rows ?? 4} /> : <Input placeholder={placeholder} />}
      {description && <Text slot="description">{description}</Text>}
      <FieldError>{error}</FieldError>
    </TextField>
  );
}

/**
 * A native select: the platform's own combobox, with the best keyboard and screen-reader
 * support there is, and what outside tests find by role `combobox` and its label.
 */
export function SelectField<T extends string>(props: {
  label: string;
  value: T;
  onChange: (value: T) => void;
  options: ReadonlyArray<{ value: T; label: string; group?: string }>;
  error?: string;
  hideLabel?: boolean;
}) {
  const id = `select-${props.label.replace(/\W+/g, '-').toLowerCase()}`;
  const groups = [...new Set(props.options.map((o) => o.group ?? ''))];
  const render = (group: string) =>
    props.options
      .filter((o) => (o.group ?? '') === group)
      .map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ));
  return (
    <div className="field">
      <label htmlFor={id} className={props.hideLabel ? 'visually-hidden' : undefined}>
        {props.label}
      </label>
      <select id={id} value={props.value} onChange={(e) => props.onChange(e.target.value as T)} aria-invalid={!!props.error || undefined}>
        {groups.length > 1
          ? groups.map((g) => (
              <optgroup key={g} label={g}>
                {render(g)}
              </optgroup>
            ))
          : render(groups[0] ?? '')}
      </select>
      {props.error && <span className="field-error">{props.error}</span>}
    </div>
  );
}

/** An error of the API in words, with the request id to quote to support. */
export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const api = error instanceof ApiError ? error : null;
  return (
    <div role="alert" className="notice error">
      {title && <strong>{title} </strong>}
      {api ? api.message : error instanceof Error ? error.message : String(error)}
      {api?.requestId && (
        <span className="request-id">
          {' '}
          Request id: <code>{api.requestId}</code>
        </span>
      )}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p role="status" className="loading">
      Loading {what}…
    </p>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{title}</p>
      {children}
    </div>
  );
}
