/** Stub: to be built (see docs/web-console.md for the page's contract). */
export function SignInPage() {
  return (
    <section>
      <h1>Sign in</h1>
    </section>
  );
}
