/** Stub: to be built (see docs/web-console.md for the page's contract). */
export function ResetPasswordPage() {
  return (
    <section>
      <h1>Choose a new password</h1>
    </section>
  );
}
