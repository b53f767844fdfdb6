import { useId } from 'preact/hooks';

/** The input attributes the console uses; a closed list keeps the types simple. */
interface InputProps {
  type?: 'text' | 'email' | 'password' | 'url' | 'number' | 'search' | 'tel' | 'datetime-local';
  name?: string;
  autocomplete?: string;
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  min?: number | string;
  max?: number | string;
  step?: number | string;
  placeholder?: string;
  disabled?: boolean;
  readOnly?: boolean;
  autoFocus?: boolean;
  inputMode?: 'text' | 'email' | 'numeric' | 'decimal' | 'url' | 'search' | 'tel' | 'none';
  pattern?: string;
}

/** A labelled input: the label names the control for people and for the browser tests alike. */
export function Field({ label, value, onValue, hint, ...rest }: InputProps & { label: string; value: string; onValue: (v: string) => void; hint?: string }) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} value={value} onInput={(e) => onValue((e.currentTarget as HTMLInputElement).value)} aria-describedby={hintId} {...(rest as Record<string, unknown>)} />
      {hint ? (
        <small id={hintId} class="hint">
          {hint}
        </small>
      ) : null}
    </div>
  );
}

/** A labelled multi-line input. */
export function TextArea({ label, value, onValue, rows = 6 }: { label: string; value: string; onValue: (v: string) => void; rows?: number }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea id={id} rows={rows} value={value} onInput={(e) => onValue((e.currentTarget as HTMLTextAreaElement).value)} />
    </div>
  );
}
