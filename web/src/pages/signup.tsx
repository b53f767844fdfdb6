/** Stub: to be built (see docs/web-console.md for the page's contract). */
export function SignUpPage() {
  return (
    <section>
      <h1>Create your account</h1>
    </section>
  );
}
