/** Stub: to be built (see docs/web-console.md for the page's contract). */
export function VerifyEmailPage() {
  return (
    <section>
      <h1>Verify your e-mail</h1>
    </section>
  );
}
