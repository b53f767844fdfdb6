/** Stub: to be built (see docs/web-console.md for the page's contract). */
export function AgentDetailPage() {
  return (
    <section>
      <h1>Agent</h1>
    </section>
  );
}
