import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { useSession } from '../../session.js';
import { ErrorMessage } from '../error-message.js';
import { useAction } from '../use-async.js';

/** Delete account (DELETE /api/settings): only after an explicit second step; then signed out, to the start page. */
export function DeleteAccountSection() {
  const { signOut } = useSession();
  const { route } = useLocation();
  const [confirming, setConfirming] = useState(false);
  const remove = useAction(async () => {
    await api.delete('/api/settings');
    await signOut().catch(() => {});
    route('/');
  });
  return (
    <section class="panel danger-zone" aria-labelledby="delete-heading">
      <h2 id="delete-heading">Delete account</h2>
      <p>This deletes your account and everything in it: agents, their memory and messages, API keys. It cannot be undone.</p>
      {confirming ? (
        <div role="group" aria-label="Confirm deletion">
          <p>
            <strong>Are you sure? Your account and all its data will be gone for good.</strong>
          </p>
          <ErrorMessage error={remove.error} />
          <div class="actions">
            <button type="button" class="danger" disabled={remove.busy} onClick={() => void remove.act()}>
              Yes, delete my account for good
            </button>
            <button type="button" class="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <button type="button" class="danger" onClick={() => setConfirming(true)}>
          Delete my account
        </button>
      )}
    </section>
  );
}
