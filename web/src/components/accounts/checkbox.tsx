import { useId } from 'preact/hooks';

/** A labelled checkbox: the label names it for people and for the browser tests alike. */
export function Checkbox({ label, checked, onChecked, hint }: { label: string; checked: boolean; onChecked: (v: boolean) => void; hint?: string }) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div class="check">
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChecked((e.currentTarget as HTMLInputElement).checked)} aria-describedby={hintId} />
      <label for={id}>{label}</label>
      {hint ? (
        <small id={hintId} class="hint">
          {hint}
        </small>
      ) : null}
    </div>
  );
}
