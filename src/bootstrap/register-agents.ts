import type { Logger } from 'pino';
import type { DependencyContainer } from 'tsyringe';
import { AGENT_SETTINGS } from '../application/agents/agent-settings.js';
import { CompleteProvisioning } from '../application/agents/complete-provisioning.use-case.js';
import { ProvisionAgent } from '../application/agents/provision-agent.use-case.js';
import { ProvisionChannelAgent } from '../application/agents/provision-channel-agent.use-case.js';
import { LocalLiveStreams } from '../adapters/outbound/live-streams/local-live-streams.js';
import { LIVE_STREAMS } from '../application/ports/live-streams.port.js';
import { GetAgent } from '../application/agents/get-agent.use-case.js';
import { ListAgentMessages } from '../application/agents/list-agent-messages.use-case.js';
import { ListAgents } from '../application/agents/list-agents.use-case.js';
import { ReplaceAgentConfig } from '../application/agents/replace-agent-config.use-case.js';
import { AGENT_RUNTIME } from '../application/ports/agent-runtime.port.js';
import { resolveDefaultModelId } from '../domain/ai/model-catalog.js';
import type { Config } from './config.js';
import { createAgentRuntime, RUNTIME_VERSION } from './create-agent-runtime.js';

/**
 * Agents: settings and use cases everywhere; the AgentRuntime only where workers run
 * (SERVICE_ROLE worker or all, CONTRACT.md section 7). An api-only process holds no runtime and
 * cannot resolve CompleteProvisioning. Needs LOGGER, CLOCK, SECRET_BOX (registerBilling) and AUTH_SETTINGS (registerAccounts) first.
 */
export function registerAgents(c: DependencyContainer, config: Config, logger: Logger): void {
  c.register(AGENT_SETTINGS, {
    useValue: {
      appUrl: config.APP_URL,
      defaultModelId: resolveDefaultModelId(config.DEFAULT_MODEL),
      runtimeVersion: RUNTIME_VERSION,
      rateLimitPerMinute: config.RATE_LIMIT_AGENTS,
    },
  });
  // no streaming vendor is integrated: ids are issued locally (README Decisions)
  c.register(LIVE_STREAMS, { useValue: new LocalLiveStreams() });
  if (config.SERVICE_ROLE !== 'api') {
    c.register(AGENT_RUNTIME, { useValue: createAgentRuntime(config, logger) });
    c.registerSingleton(CompleteProvisioning);
  }
  for (const useCase of [ProvisionAgent, ProvisionChannelAgent, ListAgents, GetAgent, ReplaceAgentConfig, ListAgentMessages]) c.registerSingleton(useCase as never);
}

/** Stops every runtime this process owns (after the queue drained its in-flight jobs). */
export async function closeAgentRuntime(c: DependencyContainer): Promise<void> {
  if (c.isRegistered(AGENT_RUNTIME)) await c.resolve(AGENT_RUNTIME).close();
}
