/** Stub: to be built (see docs/web-console.md for the page's contract). */
export function HomePage() {
  return (
    <section>
      <h1>Agent Host</h1>
    </section>
  );
}
