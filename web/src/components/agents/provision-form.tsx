import { useEffect, useId, useState } from 'preact/hooks';
import { api, ApiError } from '../../api/client.js';
import { ErrorMessage } from '../error-message.js';
import { Field } from '../field.js';
import { useAction } from '../use-async.js';
import type { AgentItem } from './types.js';

/**
 * The models an agent can be provisioned with (CONTRACT.md section 7 "provision models": the
 * default, the other `label` model, `custom`). No endpoint lists them, but the provision endpoint
 * checks the model before anything else and names the allowed ones, the default first, in its 400
 * `UNKNOWN_MODEL` answer: one refused call (nothing is created) tells the page the list.
 */
async function provisionModels(): Promise<string[]> {
  try {
    await api.post('/api/agents/provision', { name: 'model list', model: '?' });
  } catch (err) {
    const allowed = err instanceof ApiError ? err.body.allowed : undefined;
    if (Array.isArray(allowed) && allowed.every((m) => typeof m === 'string')) return allowed as string[];
  }
  return [];
}

const modelLabel = (id: string, index: number) => (id === 'custom' ? 'Custom (your own model)' : index === 0 ? `${id} (default)` : id);

/** Field `Agent name`, select `Model`, button `Provision agent`. */
export function ProvisionForm({ onProvisioned }: { onProvisioned: (agent: AgentItem) => void }) {
  const [name, setName] = useState('');
  const [models, setModels] = useState<string[]>([]);
  const [model, setModel] = useState('');
  const selectId = useId();
  useEffect(() => {
    let live = true;
    void provisionModels().then((m) => live && setModels(m));
    return () => {
      live = false;
    };
  }, []);
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
      onSubmit={(e) => {
        e.preventDefault();
        void provision.act();
      }}
    >
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
      <ErrorMessage error={provision.error} />
    </form>
  );
}
