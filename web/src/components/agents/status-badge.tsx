/** An agent's status as a small badge; the text itself is the status, so it reads the same to everyone. */
export function StatusBadge({ status }: { status: string }) {
  return <span class={`status status-${status}`}>{status}</span>;
}
