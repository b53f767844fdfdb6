import { useState } from 'preact/hooks';

/** Copies `text` with the clipboard API and says whether it worked (role=status). */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [said, setSaid] = useState<string | undefined>(undefined);
  return (
    <>
      <button
        type="button"
        class="secondary"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(text);
            setSaid('Copied.');
          } catch {
            setSaid('Your browser did not allow copying: select the text and copy it yourself.');
          }
        }}
      >
        {label}
      </button>
      <span role="status" class="muted">
        {said ?? ''}
      </span>
    </>
  );
}
