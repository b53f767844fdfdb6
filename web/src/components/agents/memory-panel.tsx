import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { ErrorMessage, Notice } from '../error-message.js';
import { Field, TextArea } from '../field.js';
import { useAction, useLoad } from '../use-async.js';

/** A value as typed: JSON when it reads as JSON (`42`, `{"a":1}`, `"text"`), else the text itself. */
function valueOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Heading `Memory`: the agent's key-value memory (GET /api/memory), and a form to add or replace one key (POST /api/memory). */
export function MemoryPanel({ agentId }: { agentId: string }) {
  const memory = useLoad(() => api.get<{ memory: Record<string, unknown>; count: number }>(`/api/memory?agentId=${encodeURIComponent(agentId)}`), [agentId]);
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [saved, setSaved] = useState<string | undefined>(undefined);
  const save = useAction(async () => {
    await api.post('/api/memory', { agentId, key: key.trim(), memory: valueOf(value) });
    setSaved(key.trim());
    setKey('');
    setValue('');
    await memory.reload();
  });
  const entries = Object.entries(memory.data?.memory ?? {});
  return (
    <section class="panel" aria-labelledby="agent-memory-heading">
      <h2 id="agent-memory-heading">Memory</h2>
      <ErrorMessage error={memory.error} />
      {memory.data && entries.length === 0 ? <p class="muted">Nothing remembered yet.</p> : null}
      {entries.length > 0 ? (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Memory of this agent</caption>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody>
              {entries.map(([k, v]) => (
                <tr key={k}>
                  <th scope="row">{k}</th>
                  <td>
                    <code>{JSON.stringify(v)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setSaved(undefined);
          void save.act();
        }}
      >
        <Field label="Key" value={key} onValue={setKey} required maxLength={200} autocomplete="off" />
        <TextArea label="Value (JSON or text)" value={value} onValue={setValue} rows={3} />
        <div class="actions">
          <button type="submit" disabled={save.busy}>
            Save memory
          </button>
        </div>
        <ErrorMessage error={save.error} />
        {saved ? <Notice>Saved “{saved}”.</Notice> : null}
      </form>
    </section>
  );
}
