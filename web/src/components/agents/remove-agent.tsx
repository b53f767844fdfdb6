import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { ErrorMessage } from '../error-message.js';
import { useAction } from '../use-async.js';

/**
 * Remove agent (POST /api/agents/:id/remove): only after an explicit second step; then back to the
 * list, where the plan's count has freed.
 */
export function RemoveAgentSection({ agentId, name }: { agentId: string; name: string }) {
  const { route } = useLocation();
  const [confirming, setConfirming] = useState(false);
  const remove = useAction(async () => {
    await api.post(`/api/agents/${encodeURIComponent(agentId)}/remove`);
    route('/agents?removed=1');
  });
  return (
    <section class="panel danger-zone" aria-labelledby="remove-heading">
      <h2 id="remove-heading">Remove agent</h2>
      <p>This removes the agent with its messages, sessions, memory, skills, credentials and verification. It cannot be undone. It frees a place in your plan at once.</p>
      {confirming ? (
        <div role="group" aria-label="Confirm removal">
          <p>
            <strong>Remove {name} and all its data for good?</strong>
          </p>
          <ErrorMessage error={remove.error} />
          <div class="actions">
            <button type="button" class="danger" disabled={remove.busy} onClick={() => void remove.act()}>
              Yes, remove this agent
            </button>
            <button type="button" class="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <button type="button" class="danger" onClick={() => setConfirming(true)}>
          Remove agent
        </button>
      )}
    </section>
  );
}
