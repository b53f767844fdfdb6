import { useLocation } from 'preact-iso';
import { useEffect } from 'preact/hooks';
import { useSession } from '../session.js';
import '../styles/accounts.css';

/** The start page: what the service is, and the way in. Signed in, it goes straight to the agents. */
export function HomePage() {
  const { user } = useSession();
  const { route } = useLocation();
  useEffect(() => {
    if (user) route('/agents', true);
  }, [user, route]);
  return (
    <section class="accounts-home">
      <h1>Agent Host</h1>
      <p>Host your own AI agents: provision one in a minute, talk to it, give it memory and skills, and keep an eye on what it does.</p>
      {user ? (
        <p aria-busy="true">Opening your agents…</p>
      ) : (
        <p class="actions">
          <a class="button" href="/signup">
            Create an account
          </a>
          <a class="button secondary" href="/signin">
            Sign in
          </a>
        </p>
      )}
    </section>
  );
}
