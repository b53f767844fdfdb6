/** Any path the console does not know. */
export function NotFoundPage() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        There is no page here. Go to <a href="/">the start page</a>.
      </p>
    </section>
  );
}
