import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { ErrorMessage, Notice } from '../error-message.js';
import { Field } from '../field.js';
import { useAction, useLoad } from '../use-async.js';

/** A server as GET /api/agents/:id/mcp-servers lists it: header names only, never their values. */
interface McpServer {
  id: string;
  name: string;
  url: string;
  tools: string[];
  allowedTools: string[] | null;
  listedTools: { name: string; description: string }[];
  headers: string[];
  status: 'ok' | 'error';
  error: string | null;
  checkedAt: string;
}

const timeLabel = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;

/**
 * Heading `MCP servers`: the agent's remote MCP servers (GET /api/agents/:id/mcp-servers), each
 * with its status, the tools the agent may call and the names of its headers; a refresh and a
 * remove per server; and a form to add one (POST) with one header (its value is sent once, stored
 * sealed, never shown again) and an optional allowlist of tool names.
 */
export function McpServersPanel({ agentId }: { agentId: string }) {
  const base = `/api/agents/${encodeURIComponent(agentId)}/mcp-servers`;
  const servers = useLoad(() => api.get<{ servers: McpServer[] }>(base), [agentId]);
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [headerName, setHeaderName] = useState('');
  const [headerValue, setHeaderValue] = useState('');
  const [tools, setTools] = useState('');
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const add = useAction(async () => {
    const allowlist = tools
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t !== '');
    const r = await api.post<{ server: McpServer }>(base, {
      name: name.trim(),
      url: url.trim(),
      ...(headerName.trim() ? { headers: { [headerName.trim()]: headerValue } } : {}),
      ...(allowlist.length > 0 ? { tools: allowlist } : {}),
    });
    setNotice(r.server.status === 'ok' ? `Added “${r.server.name}”: ${r.server.tools.length} tools.` : `Added “${r.server.name}”, but it could not be reached: ${r.server.error}`);
    setName('');
    setUrl('');
    setHeaderName('');
    setHeaderValue('');
    setTools('');
    await servers.reload();
  });
  const refresh = useAction(async (s: McpServer) => {
    const r = await api.post<{ server: McpServer }>(`${base}/${encodeURIComponent(s.id)}/refresh`);
    setNotice(r.server.status === 'ok' ? `Refreshed “${s.name}”: ${r.server.tools.length} tools.` : `“${s.name}” could not be reached: ${r.server.error}`);
    await servers.reload();
  });
  const remove = useAction(async (s: McpServer) => {
    await api.delete(`${base}/${encodeURIComponent(s.id)}`);
    setNotice(`Removed “${s.name}”.`);
    await servers.reload();
  });
  const list = servers.data?.servers ?? [];
  const busy = add.busy || refresh.busy || remove.busy;
  return (
    <section class="panel" aria-labelledby="agent-mcp-heading">
      <h2 id="agent-mcp-heading">MCP servers</h2>
      <p class="muted">Remote tools the agent may call, through this service: the agent never sees the headers.</p>
      <ErrorMessage error={servers.error} />
      {servers.data && list.length === 0 ? <p class="muted">No MCP server yet.</p> : null}
      {list.length > 0 ? (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">MCP servers of this agent</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Tools the agent may call</th>
                <th scope="col">Headers</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.map((s) => (
                <tr key={s.id}>
                  <th scope="row">
                    {s.name}
                    <br />
                    <small class="muted">{s.url}</small>
                  </th>
                  <td>
                    {s.status === 'ok' ? 'ok' : <span class="mcp-error">{s.error ?? 'error'}</span>}
                    <br />
                    <small class="muted">checked {timeLabel(s.checkedAt)}</small>
                  </td>
                  <td>{s.tools.length > 0 ? s.tools.join(', ') : <span class="muted">none</span>}</td>
                  <td>{s.headers.length > 0 ? s.headers.join(', ') : <span class="muted">none</span>}</td>
                  <td>
                    <div class="actions">
                      <button type="button" class="secondary" disabled={busy} aria-label={`Refresh ${s.name}`} onClick={() => void refresh.act(s)}>
                        Refresh
                      </button>
                      <button type="button" class="secondary" disabled={busy} aria-label={`Remove ${s.name}`} onClick={() => void remove.act(s)}>
                        Remove
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <ErrorMessage error={refresh.error ?? remove.error} />
      <form
        aria-label="Add an MCP server"
        onSubmit={(e) => {
          e.preventDefault();
          setNotice(undefined);
          void add.act();
        }}
      >
        <Field label="Server name" value={name} onValue={setName} required maxLength={32} autocomplete="off" hint="Lower-case letters, digits, - and _; the agent's tools are named mcp__<name>__<tool>." />
        <Field label="Server URL" type="url" value={url} onValue={setUrl} required maxLength={2048} autocomplete="off" />
        <Field label="Header name (optional)" value={headerName} onValue={setHeaderName} maxLength={64} autocomplete="off" placeholder="Authorization" />
        <Field label="Header value" type="password" value={headerValue} onValue={setHeaderValue} maxLength={8192} autocomplete="off" hint="Stored encrypted; never shown again." />
        <Field label="Allowed tools (optional, comma-separated)" value={tools} onValue={setTools} autocomplete="off" hint="Empty: every tool the server lists." />
        <div class="actions">
          <button type="submit" disabled={busy}>
            Add MCP server
          </button>
        </div>
        <ErrorMessage error={add.error} />
      </form>
      {notice ? <Notice>{notice}</Notice> : null}
    </section>
  );
}
