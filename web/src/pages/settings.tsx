/** Stub: to be built (see docs/web-console.md for the page's contract). */
export function SettingsPage() {
  return (
    <section>
      <h1>Settings</h1>
    </section>
  );
}
