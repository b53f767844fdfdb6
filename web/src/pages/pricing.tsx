/** Stub: to be built (see docs/web-console.md for the page's contract). */
export function PricingPage() {
  return (
    <section>
      <h1>Plans and billing</h1>
    </section>
  );
}
