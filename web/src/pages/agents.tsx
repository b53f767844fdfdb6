import { useCallback } from 'preact/hooks';
import { api } from '../api/client.js';
import { ProvisionForm } from '../components/agents/provision-form.js';
import { StatusBadge } from '../components/agents/status-badge.js';
import type { AgentItem } from '../components/agents/types.js';
import { useInterval } from '../components/agents/use-interval.js';
import { ErrorMessage } from '../components/error-message.js';
import { RequireSession } from '../components/layout.js';
import { useLoad } from '../components/use-async.js';
import '../styles/agents.css';

interface Allowance {
  agents: { current: number; limit: number | null };
  models: string[];
  defaultModel: string;
}

/** Statuses that will move by themselves: the list looks again sooner while one is shown. */
const MOVING = new Set(['provisioning']);

/** Why provisioning would be refused (no plan, or the plan's limit reached), said before anyone tries. */
function blockedBy(a: Allowance | undefined, count: number): string | undefined {
  if (!a) return undefined;
  if (a.agents.limit === null) return 'Provisioning needs a paid plan: choose one on the pricing page.';
  if (count >= a.agents.limit) return `Your plan allows ${a.agents.limit} ${a.agents.limit === 1 ? 'agent' : 'agents'}: remove one (open it, then "Remove agent") or change your plan.`;
  return undefined;
}

export function AgentsPage() {
  return (
    <RequireSession>
      <Agents />
    </RequireSession>
  );
}

function Agents() {
  const list = useLoad(() => api.get<{ agents: AgentItem[]; count: number }>('/api/agents'));
  // the plan's limit and the provision models (GET /api/agents/allowance: provisioning's own reading)
  const allowance = useLoad(() => api.get<Allowance>('/api/agents/allowance'));
  const agents = list.data?.agents ?? [];
  const moving = agents.some((a) => MOVING.has(a.status));
  useInterval(list.reload, moving ? 2000 : 10000);
  const onProvisioned = useCallback(
    (agent: AgentItem) => {
      list.setData((d) => ({ agents: [...(d?.agents ?? []), agent], count: (d?.count ?? 0) + 1 }));
      void list.reload();
      void allowance.reload();
    },
    [list.reload, allowance.reload],
  );
  const limit = allowance.data?.agents.limit ?? undefined;
  const count = list.data?.count ?? agents.length;
  return (
    <section class="agents">
      <h1>Your agents</h1>
      {list.data ? (
        <p class="agents-limit">{limit !== undefined ? `${count} of ${limit} agents` : `${count} ${count === 1 ? 'agent' : 'agents'}`}</p>
      ) : null}
      {allowance.data && allowance.data.agents.limit === null ? (
        <p>
          Agents need a paid plan. <a href="/pricing">See plans</a>
        </p>
      ) : null}
      <h2>Provision an agent</h2>
      <ProvisionForm models={allowance.data?.models ?? []} onProvisioned={onProvisioned} blocked={blockedBy(allowance.data, count)} />
      <h2>Agents</h2>
      {list.loading && !list.data ? <p aria-busy="true">Loading…</p> : null}
      <ErrorMessage error={list.error} />
      {list.data && agents.length === 0 ? <p class="muted">No agents yet: provision your first one above.</p> : null}
      {agents.length > 0 ? (
        <ul class="agents-list" aria-label="Agents">
          {agents.map((a) => (
            <li key={a.id}>
              <a href={`/agents/${encodeURIComponent(a.id)}`}>{a.name}</a> <StatusBadge status={a.status} /> <span class="muted agents-model">{a.model}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
