/** Stub: to be built (see docs/web-console.md for the page's contract). */
export function OnboardingPage() {
  return (
    <section>
      <h1>Welcome</h1>
    </section>
  );
}
