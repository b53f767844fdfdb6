/** Stub: to be built (see docs/web-console.md for the page's contract). */
export function ForgotPasswordPage() {
  return (
    <section>
      <h1>Forgot your password?</h1>
    </section>
  );
}
