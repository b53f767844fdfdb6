import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { RouteTimings } from '../adapters/inbound/http/plugins/route-timings.js';
import { AGENT_SETTINGS } from '../application/ports/agent-settings.port.js';
import { CompleteProvisioning } from '../application/agents/complete-provisioning.use-case.js';
import { ProvisionAgent } from '../application/agents/provision-agent.use-case.js';
import { ProvisionChannelAgent } from '../application/agents/provision-channel-agent.use-case.js';
import { LocalLiveStreams } from '../adapters/outbound/live-streams/local-live-streams.js';
import { LIVE_STREAMS } from '../application/ports/live-streams.port.js';
import { CRON_CALENDAR } from '../application/ports/cron-calendar.port.js';
import { CronParserCalendar } from '../adapters/outbound/scheduling/cron-parser-calendar.js';
import { GetAgent } from '../application/agents/get-agent.use-case.js';
import { ListAgentMessages } from '../application/agents/list-agent-messages.use-case.js';
import { ListAgents } from '../application/agents/list-agents.use-case.js';
import { ReplaceAgentConfig } from '../application/agents/replace-agent-config.use-case.js';
import { AGENT_CHAT_SETTINGS } from '../application/ports/agent-chat-settings.port.js';
import { AGENT_TOOL_SOURCE } from '../application/ports/agent-tool-source.port.js';
import { mcpToolOffers } from '../application/mcp/mcp-tool-offers.js';
import { AgentToolbox } from '../application/skills/agent-tool-source.js';
import { TOOL_SCHEMAS } from '../application/ports/tool-schema.port.js';
import { ZodToolSchemas } from '../adapters/outbound/skills/zod-tool-schemas.js';
import { AnswerNextAgentMessage } from '../application/agents/answer-next-agent-message.use-case.js';
import { AuthorizeAgentSocket } from '../application/agents/authorize-agent-socket.use-case.js';
import { AuthorizeRuntimeChat } from '../application/agents/authorize-runtime-chat.use-case.js';
import { CompleteChat } from '../application/ai/complete-chat.use-case.js';
import { StreamChat } from '../application/ai/stream-chat.use-case.js';
import { RunAgentTool } from '../application/skills/run-agent-tool.use-case.js';
import { ReadAgentMessage } from '../application/agents/read-agent-message.use-case.js';
import { FindAgentMailboxWork } from '../application/agents/find-agent-mailbox-work.use-case.js';
import { SendAgentMessage } from '../application/agents/send-agent-message.use-case.js';
import { StreamAgentReply } from '../application/agents/stream-agent-reply.use-case.js';
import { ListCallerModels } from '../application/agents/list-caller-models.use-case.js';
import { MAILBOX_LANES, NO_MAILBOX_LANES } from '../application/ports/mailbox-lanes.port.js';
import { MAILBOX_SIGNALS } from '../application/ports/agent-mailbox.port.js';
import { AGENT_RUNTIME } from '../application/ports/agent-runtime.port.js';
import { LOGGER } from '../application/ports/logger.port.js';
import { WORKER_IDENTITY, type WorkerIdentity } from '../application/ports/worker-identity.port.js';
import { AgentMailboxDispatcher } from '../adapters/inbound/jobs/agent-mailbox-dispatcher.js';
import { resolveDefaultModelId } from '../domain/ai/model-catalog.js';
import { HOST_CALLS } from '../application/ports/host-calls.port.js';
import { InProcessHostCalls } from '../adapters/inbound/host-calls/in-process-host-calls.js';
import { HostCallDoor, type HostCallDeps } from '../adapters/inbound/host-calls/host-call-door.js';
import { ChatMetering } from '../application/ai/chat-metering.js';
import type { Config } from './config.js';
import { createAgentRuntime, RUNTIME_VERSION } from './create-agent-runtime.js';
import type { Infrastructure } from './infrastructure.js';

/** How many of one user's agents a worker answers at once. */
const MAILBOX_LANES_PER_USER = 4;

/**
 * Agents: settings and use cases everywhere; the AgentRuntime only where workers run
 * (SERVICE_ROLE worker or all, CONTRACT.md section 7). An api-only process holds no runtime and
 * cannot resolve CompleteProvisioning. Needs LOGGER, CLOCK, SECRET_BOX (registerBilling) and AUTH_SETTINGS (registerAccounts) first.
 */
export function registerAgents(c: DependencyContainer, config: Config, logger: Logger, infra: Pick<Infrastructure, 'mailboxSignals'>): void {
  c.register(AGENT_SETTINGS, {
    useValue: {
      appUrl: config.APP_URL,
      serviceUrl: config.AGENT_SERVICE_URL,
      defaultModelId: resolveDefaultModelId(config.DEFAULT_MODEL),
      runtimeVersion: RUNTIME_VERSION,
      rateLimitPerMinute: config.RATE_LIMIT_AGENTS,
    },
  });
  // no streaming vendor is integrated: ids are issued locally (docs/decisions/0064-channel-provisioning.md)
  c.register(LIVE_STREAMS, { useValue: new LocalLiveStreams() });
  // the agents' schedules (scheduled runs): cron read by pg-boss's own cron library
  c.register(CRON_CALENDAR, { useValue: new CronParserCalendar() });
  c.register(AGENT_CHAT_SETTINGS, {
    useValue: {
      replyTimeoutMs: config.AGENT_REPLY_TIMEOUT_MS,
      rateLimitPerMinute: config.RATE_LIMIT_CHAT,
      pollMs: config.AGENT_MAILBOX_POLL_MS,
      staleMs: config.AGENT_MAILBOX_STALE_MS,
      historyMessages: 20,
      maxAttempts: 3,
      maxToolSteps: config.AGENT_MAX_TOOL_STEPS,
    },
  });
  c.register(TOOL_SCHEMAS, { useValue: new ZodToolSchemas() });
  c.register(AGENT_TOOL_SOURCE, { useValue: { toolsFor: (installs) => c.resolve(AgentToolbox).toolsFor(installs), mcpToolsFor: mcpToolOffers } });
  c.register(MAILBOX_SIGNALS, { useValue: infra.mailboxSignals });
  if (config.SERVICE_ROLE !== 'api') {
    // host, pid and a random part: unique per start, and per container when tests run several in one process
    c.register(WORKER_IDENTITY, { useValue: { workerId: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}` } });
    // the programs' chat and tool calls answered here, at the door (its use cases are registered later: built at the first call)
    c.register(HOST_CALLS, { useFactory: instanceCachingFactory((r) => new InProcessHostCalls(new HostCallDoor(hostCallDeps(r)), r.resolve(LOGGER), r.resolve(RouteTimings))) });
    c.register(AGENT_RUNTIME, { useValue: createAgentRuntime(config, logger, () => c.resolve(HOST_CALLS)) });
    for (const useCase of [CompleteProvisioning, AnswerNextAgentMessage, FindAgentMailboxWork]) c.registerSingleton(useCase as never);
    const dispatcher = new AgentMailboxDispatcher(
      c.resolve(AnswerNextAgentMessage),
      c.resolve(FindAgentMailboxWork),
      infra.mailboxSignals,
      c.resolve(AGENT_RUNTIME),
      c.resolve(LOGGER),
      { pollMs: config.AGENT_MAILBOX_POLL_MS, lanesPerUser: MAILBOX_LANES_PER_USER, workerId: c.resolve<WorkerIdentity>(WORKER_IDENTITY).workerId },
    );
    c.register(AgentMailboxDispatcher, { useValue: dispatcher });
    c.register(MAILBOX_LANES, { useValue: dispatcher });
  } else {
    c.register(MAILBOX_LANES, { useValue: NO_MAILBOX_LANES });
  }
  for (const useCase of [ProvisionAgent, ProvisionChannelAgent, ListAgents, GetAgent, ReplaceAgentConfig, ListAgentMessages, SendAgentMessage, StreamAgentReply, ListCallerModels, AuthorizeRuntimeChat, AuthorizeAgentSocket, ReadAgentMessage]) {
    c.registerSingleton(useCase as never);
  }
}

/** Stops every runtime this process owns (after the queue drained its in-flight jobs). */
export async function closeAgentRuntime(c: DependencyContainer): Promise<void> {
  if (c.isRegistered(AgentMailboxDispatcher)) await c.resolve(AgentMailboxDispatcher).stop();
  if (c.isRegistered(AGENT_RUNTIME)) await c.resolve(AGENT_RUNTIME).close();
  // the programs' in-process chat calls settle their usage in the background: a worker without an
  // HTTP server (whose close drains them) waits for those settlements here
  if (c.isRegistered(HOST_CALLS)) await c.resolve(ChatMetering).drain();
}

/** The door's use cases, from the container: the in-process transport's (the HTTP route is handed the same at its registration). */
function hostCallDeps(c: DependencyContainer): HostCallDeps {
  return { authorizeRuntimeChat: c.resolve(AuthorizeRuntimeChat), completeChat: c.resolve(CompleteChat), streamChat: c.resolve(StreamChat), runAgentTool: c.resolve(RunAgentTool) };
}
