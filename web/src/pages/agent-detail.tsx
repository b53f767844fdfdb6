import { useCallback, useEffect, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, ApiError } from '../api/client.js';
import { ActivityPanel } from '../components/agents/activity-panel.js';
import { ChatPanel } from '../components/agents/chat-panel.js';
import { ConfigPanel } from '../components/agents/config-panel.js';
import { COMMANDS, commandAllowed, type Command } from '../components/agents/lifecycle.js';
import { RemoveAgentSection } from '../components/agents/remove-agent.js';
import { McpServersPanel } from '../components/agents/mcp-servers-panel.js';
import { SchedulesPanel } from '../components/agents/schedules-panel.js';
import { MemoryPanel } from '../components/agents/memory-panel.js';
import { SkillsPanel } from '../components/agents/skills-panel.js';
import { StatsPanel } from '../components/agents/stats-panel.js';
import type { AgentDetail, AgentItem } from '../components/agents/types.js';
import { useInterval } from '../components/agents/use-interval.js';
import { VerificationPanel } from '../components/agents/verification-panel.js';
import { ErrorMessage, Notice } from '../components/error-message.js';
import { RequireSession } from '../components/layout.js';
import { useAction, useLoad } from '../components/use-async.js';
import { useSession } from '../session.js';
import '../styles/agents.css';

export function AgentDetailPage() {
  return (
    <RequireSession>
      <AgentDetailView />
    </RequireSession>
  );
}


/**
 * /agents/:id: the agent (GET /api/agents/:id; another user's or an unknown id is the 404
 * sentence), its lifecycle buttons (the instance endpoints: an instance hosts all the user's
 * agents, so they move all of them), and its sections. The detail has no name nor socket URL,
 * so the page takes them from the agent's list item.
 */
function AgentDetailView() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const { user } = useSession();
  const detail = useLoad(() => api.get<{ agent: AgentDetail }>(`/api/agents/${encodeURIComponent(id)}`), [id]);
  const item = useLoad(() => api.get<{ agents: AgentItem[] }>('/api/agents').then((r) => r.agents.find((a) => a.id === id)), [id]);
  const [status, setStatus] = useState<string | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (detail.data) setStatus(detail.data.agent.status);
  }, [detail.data]);
  const gone = detail.error instanceof ApiError && detail.error.status === 404;
  // the socket tells status moves as they happen; this catches up when it is down
  useInterval(detail.reload, gone ? null : 10_000);
  const lifecycle = useAction(async (command: Command, label: string) => {
    const r = await api.post<{ status?: string; message?: string }>(`/api/instance/${encodeURIComponent(user!.id)}/${command}`);
    setNotice(r.message ?? `${label}: done.`);
    if (r.status) setStatus(r.status);
    await detail.reload();
  });
  const onStatus = useCallback((s: string) => setStatus(s), []);

  if (detail.error && (gone || !detail.data)) {
    return (
      <section>
        <h1>{gone ? 'Agent not found' : 'Agent'}</h1>
        <ErrorMessage error={detail.error} />
        <p>
          <a href="/agents">Back to your agents</a>
        </p>
      </section>
    );
  }
  if (!detail.data) return <p aria-busy="true">Loading…</p>;
  const agent = detail.data.agent;
  const current = status ?? agent.status;
  const name = item.data?.name ?? (item.loading ? '' : 'Agent');
  return (
    <section class="agent-detail">
      <p>
        <a href="/agents">← Your agents</a>
      </p>
      <h1>{name || 'Agent'}</h1>
      <p class="agent-status">
        Status: <span class={`status status-${status ?? agent.status}`}>{status ?? agent.status}</span>
      </p>
      {item.data ? <p class="muted">Model: {item.data.model}</p> : null}
      <ErrorMessage error={detail.error} />
      <div class="actions" role="group" aria-label="Lifecycle">
        {COMMANDS.map(([command, label]) => (
          <button
            key={command}
            type="button"
            class={command === 'stop' ? 'secondary' : undefined}
            disabled={lifecycle.busy || !commandAllowed(current, command)}
            onClick={() => {
              setNotice(undefined);
              void lifecycle.act(command, label);
            }}
          >
            {label}
          </button>
        ))}
      </div>
      <p class="muted">These act on your instance: every agent of yours starts, stops or restarts together.</p>
      <ErrorMessage error={lifecycle.error} />
      {notice ? <Notice>{notice}</Notice> : null}
      <ChatPanel agentId={id} websocketUrl={item.data?.websocketUrl} onStatus={onStatus} />
      <ConfigPanel agentId={id} />
      <StatsPanel agentId={id} status={current} />
      <ActivityPanel agentId={id} status={current} />
      <MemoryPanel agentId={id} />
      <SchedulesPanel agentId={id} />
      <SkillsPanel agentId={id} />
      <McpServersPanel agentId={id} />
      <VerificationPanel agentId={id} host={location.host} />
      <RemoveAgentSection agentId={id} name={name || 'this agent'} />
    </section>
  );
}
