import { useId, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { ErrorMessage } from '../error-message.js';
import { Field } from '../field.js';
import { useAction } from '../use-async.js';
import type { AgentItem } from './types.js';

const modelLabel = (id: string, index: number) => (id === 'custom' ? 'Custom (your own model)' : index === 0 ? `${id} (default)` : id);

/**
 * Field `Agent name`, select `Model` (the provision models from GET /api/agents/allowance, the
 * default first: choosing it sends no model), button `Provision agent`.
 */
export function ProvisionForm({ models, onProvisioned, blocked }: { models: readonly string[]; onProvisioned: (agent: AgentItem) => void; blocked?: string | undefined }) {
  const [name, setName] = useState('');
  const [model, setModel] = useState('');
  const selectId = useId();
  const provision = useAction(async () => {
    const body: Record<string, string> = { name: name.trim() };
    if (model) body.model = model;
    const r = await api.post<{ agent: AgentItem }>('/api/agents/provision', body);
    setName('');
    onProvisioned(r.agent);
    return r.agent;
  });
  return (
    <form
      class="agents-provision"
      aria-describedby={blocked ? 'provision-blocked' : undefined}
      onSubmit={(e) => {
        e.preventDefault();
        void provision.act();
      }}
    >
      {blocked ? (
        <p id="provision-blocked" class="muted">
          {blocked}
        </p>
      ) : null}
      <fieldset disabled={Boolean(blocked)}>
      <Field label="Agent name" value={name} onValue={setName} required maxLength={100} autocomplete="off" />
      <div class="field">
        <label for={selectId}>Model</label>
        <select id={selectId} value={model} onChange={(e) => setModel((e.currentTarget as HTMLSelectElement).value)}>
          {models.length === 0 ? <option value="">The platform's default model</option> : null}
          {models.map((m, i) => (
            <option key={m} value={i === 0 ? '' : m}>
              {modelLabel(m, i)}
            </option>
          ))}
        </select>
      </div>
      <div class="actions">
        <button type="submit" disabled={provision.busy}>
          Provision agent
        </button>
      </div>
      </fieldset>
      <ErrorMessage error={provision.error} />
    </form>
  );
}
