import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { useSession } from '../session.js';

/** The frame of every page: a skip link, the navigation for the session's state (`/docs` is the API reference, a page of its own: `target="_top"` keeps the router from taking it), the main landmark. */
export function Layout({ children }: { children: ComponentChildren }) {
  const { user, signOut } = useSession();
  const { route } = useLocation();
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="/">
          Agent Host
        </a>
        <nav aria-label="Main">
          {user ? (
            <>
              <a href="/agents">Agents</a>
              <a href="/pricing">Pricing</a>
              <a href="/pay-per-call">Pay per call</a>
              <a href="/settings">Settings</a>
              <a href="/docs" target="_top">API docs</a>
              <button
                type="button"
                class="link"
                onClick={async () => {
                  await signOut();
                  route('/signin');
                }}
              >
                Sign out
              </button>
            </>
          ) : (
            <>
              <a href="/pricing">Pricing</a>
              <a href="/pay-per-call">Pay per call</a>
              <a href="/signin">Sign in</a>
              <a href="/signup">Sign up</a>
              <a href="/docs" target="_top">API docs</a>
            </>
          )}
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}

/** A page that needs a session: asks the visitor to sign in otherwise. */
export function RequireSession({ children }: { children: ComponentChildren }) {
  const { user } = useSession();
  const { url } = useLocation();
  if (user === undefined) return <p aria-busy="true">Loading…</p>;
  if (user === null)
    return (
      <section>
        <h1>Please sign in</h1>
        <p>
          This page needs you to be signed in. <a href={`/signin?next=${encodeURIComponent(url)}`}>Sign in</a> or <a href="/signup">create an account</a>.
        </p>
      </section>
    );
  return <>{children}</>;
}
