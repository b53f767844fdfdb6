import { websocketUrlFor, instanceUrlFor } from '../../../../application/agents/agent-urls.js';
import type { AgentMessage } from '../../../../application/ports/agent-message-repository.port.js';
import type { Agent } from '../../../../domain/agents/agent.js';
import { subdomainFor, type Instance } from '../../../../domain/agents/instance.js';
import { agentFailure } from '../error-map.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** spec "Agent (list item and provisioned item)". */
export const agentListItem = (appUrl: string, a: Agent) => ({
  id: a.id,
  name: a.name,
  model: a.model,
  status: a.status,
  websocketUrl: websocketUrlFor(appUrl, a.id),
  createdAt: a.createdAt.toISOString(),
  updatedAt: a.updatedAt.toISOString(),
});

/** The provisioned item of POST /api/agents/provision (spec: id, name, status, websocketUrl, model, createdAt). */
export const provisionedAgent = (appUrl: string, a: Agent) => ({
  id: a.id,
  name: a.name,
  status: a.status,
  websocketUrl: websocketUrlFor(appUrl, a.id),
  model: a.model,
  createdAt: a.createdAt.toISOString(),
});

/**
 * spec "Agent detail": the instance's fields come from the instance; before the provision job
 * made it, the subdomain and URL (derived from the user) are known and the rest is null.
 */
export const agentDetail = (appUrl: string, a: Agent, i: Instance | null) => ({
  id: a.id,
  status: a.status,
  startedAt: iso(i?.startedAt ?? null),
  plan: i?.plan ?? null,
  subdomain: i?.subdomain ?? subdomainFor(a.userId),
  url: i?.url ?? instanceUrlFor(appUrl, a.userId),
  runtimeVersion: i?.runtimeVersion ?? null,
  verified: a.verified,
  verificationType: a.verificationType,
  attestationUid: a.attestationUid,
  verifiedAt: iso(a.verifiedAt),
});

/** CONTRACT.md section 7 "agent message"; a user message whose answer failed also carries `failure` (the code POST /api/chat answered). */
export const agentMessageBody = (m: AgentMessage & { failedWith?: string }) => ({
  id: m.id,
  agentId: m.agentId,
  role: m.role,
  content: m.content,
  channel: m.channel,
  createdAt: m.createdAt.toISOString(),
  ...(m.model ? { model: m.model } : {}),
  ...(m.failedWith ? { failure: { code: agentFailure(m.failedWith).code } } : {}),
});

/**
 * The body of an agent's failed answer, wherever it is told (POST /api/chat, /api/agent's chat
 * action, the websocket's error frame): the code as error-map.ts `agentFailure` tells it, the
 * stored text unless that names a better sentence, and `reason`, the stored code, when it differs.
 */
export function agentFailureBody(code: string, stored: string): { error: string; code: string; reason?: string } {
  const told = agentFailure(code);
  return { error: told.error ?? stored, code: told.code, ...(told.code !== code ? { reason: code } : {}) };
}
