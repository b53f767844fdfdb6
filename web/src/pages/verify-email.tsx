import { useLocation } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { api, withQuery } from '../api/client.js';
import { ErrorMessage } from '../components/error-message.js';
import { useSession } from '../session.js';
import '../styles/accounts.css';

type State = { kind: 'working' } | { kind: 'done' } | { kind: 'failed'; error: unknown };

/** /verify-email?token=: the verification mail's link. Spends the token once and says what happened. */
export function VerifyEmailPage() {
  const { query } = useLocation();
  const { user } = useSession();
  const token = query.token;
  const [state, setState] = useState<State>({ kind: 'working' });
  useEffect(() => {
    if (!token) return;
    let live = true;
    api.get(withQuery('/api/auth/verify-email', { token })).then(
      () => live && setState({ kind: 'done' }),
      (error: unknown) => live && setState({ kind: 'failed', error }),
    );
    return () => {
      live = false;
    };
  }, [token]);

  if (!token)
    return (
      <section class="auth-page">
        <h1>Verify your e-mail</h1>
        <p>This page needs the link from the mail we sent you. Open the mail and follow its link; if you cannot find it, sign in and ask for a new one in your settings.</p>
      </section>
    );
  if (state.kind === 'working')
    return (
      <section class="auth-page">
        <h1>Verify your e-mail</h1>
        <p aria-busy="true">Checking your link…</p>
      </section>
    );
  if (state.kind === 'failed')
    return (
      <section class="auth-page">
        <h1>Verify your e-mail</h1>
        <ErrorMessage error={state.error} />
        <p>
          {user ? (
            <>
              Ask for a new link in your <a href="/settings">settings</a>.
            </>
          ) : (
            <>
              <a href="/signin?next=%2Fsettings">Sign in</a> and ask for a new link in your settings.
            </>
          )}
        </p>
      </section>
    );
  return (
    <section class="auth-page">
      <h1>E-mail verified</h1>
      <p>Thank you: your e-mail address is confirmed.</p>
      <p>{user ? <a href="/agents">Go to your agents</a> : <a href="/signin">Sign in</a>}</p>
    </section>
  );
}
