/** Stub: to be built (see docs/web-console.md for the page's contract). */
export function AgentsPage() {
  return (
    <section>
      <h1>Your agents</h1>
    </section>
  );
}
