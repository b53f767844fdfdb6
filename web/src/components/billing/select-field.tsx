import { useId } from 'preact/hooks';

/** A labelled select (field.tsx has inputs only). */
export function SelectField({ label, value, onValue, options }: { label: string; value: string; onValue: (v: string) => void; options: { id: string; label: string }[] }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onValue((e.currentTarget as HTMLSelectElement).value)}>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
