import type { InjectionToken } from 'tsyringe';
import type { LabelModelId } from '../../domain/ai/model-catalog.js';

/** The slice of configuration the agent use cases and routes read. */
export interface AgentSettings {
  /** APP_URL: websocket URLs and instance URLs. */
  readonly appUrl: string;
  /** AGENT_SERVICE_URL (default APP_URL): the base URL agent hosts call the service back at. */
  readonly serviceUrl: string;
  /** `DEFAULT_MODEL`, validated: an agent provisioned without a model gets it. */
  readonly defaultModelId: LabelModelId;
  /** The agent-host version new instances run (the runtime adapter's). */
  readonly runtimeVersion: string;
  /** `RATE_LIMIT_AGENTS`: requests per caller per minute on /api/agents*. */
  readonly rateLimitPerMinute: number;
}

export const AGENT_SETTINGS: InjectionToken<AgentSettings> = Symbol('AgentSettings');
