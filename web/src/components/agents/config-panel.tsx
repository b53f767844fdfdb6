import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { ErrorMessage, Notice } from '../error-message.js';
import { TextArea } from '../field.js';
import { useAction, useLoad } from '../use-async.js';

/** Why the text cannot be sent, or undefined when it is a JSON object. */
function invalidJson(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return `This is not valid JSON (${err instanceof Error ? err.message : 'it cannot be read'}). Fix it; nothing was saved.`;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'The configuration must be a JSON object, like {"systemPrompt": "Be brief"}. Nothing was saved.';
  return undefined;
}

/** Heading `Configuration`: the agent's config object as JSON, replaced whole by PUT /api/agents/:id/config. */
export function ConfigPanel({ agentId }: { agentId: string }) {
  const path = `/api/agents/${encodeURIComponent(agentId)}/config`;
  const load = useLoad(() => api.get<{ config: Record<string, unknown> }>(path), [path]);
  const [text, setText] = useState('');
  const [invalid, setInvalid] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (load.data) setText(JSON.stringify(load.data.config, null, 2));
  }, [load.data]);
  const save = useAction(async (config: Record<string, unknown>) => {
    const r = await api.put<{ config: Record<string, unknown> }>(path, config);
    setText(JSON.stringify(r.config, null, 2));
    setSaved(true);
  });
  return (
    <section class="panel" aria-labelledby="agent-config-heading">
      <h2 id="agent-config-heading">Configuration</h2>
      <ErrorMessage error={load.error} />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setSaved(false);
          const why = invalidJson(text);
          setInvalid(why);
          if (why) return;
          void save.act(JSON.parse(text) as Record<string, unknown>);
        }}
      >
        <TextArea label="Configuration (JSON)" value={text} onValue={setText} rows={8} />
        <div class="actions">
          <button type="submit" disabled={save.busy || load.loading}>
            Save configuration
          </button>
        </div>
        {invalid ? (
          <p class="error" role="alert">
            {invalid}
          </p>
        ) : null}
        <ErrorMessage error={save.error} />
        {saved ? <Notice>Configuration saved.</Notice> : null}
      </form>
    </section>
  );
}
