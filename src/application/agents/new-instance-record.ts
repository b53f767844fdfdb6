import { subdomainFor } from '../../domain/agents/instance.js';
import type { NewInstance } from '../ports/instance-repository.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { SecretBox } from '../ports/secret-box.port.js';
import type { AgentSettings } from '../ports/agent-settings.port.js';
import { instanceUrlFor } from './agent-urls.js';
import { newGatewayToken } from './gateway-token.js';

/**
 * A user's instance as it is first stored (`provisioning`, not started), with a new gateway token
 * kept only sealed and as its sha256; `token` is the token itself, for a caller that starts the
 * runtime at once. Made with the user's first agent (ProvisionAgent), or by the provision job for
 * an agent provisioned before instances were made that way.
 */
export function newInstanceRecord(
  ids: IdGenerator,
  secrets: SecretBox,
  settings: Pick<AgentSettings, 'appUrl' | 'runtimeVersion'>,
  userId: string,
  job: { plan: string; ramGb: number },
): { token: string; instance: NewInstance } {
  const { token, stored } = newGatewayToken(ids, secrets, userId);
  return {
    token,
    instance: {
      userId,
      status: 'provisioning',
      startedAt: null,
      subdomain: subdomainFor(userId),
      url: instanceUrlFor(settings.appUrl, userId),
      plan: job.plan,
      runtimeVersion: settings.runtimeVersion,
      gatewayToken: stored,
      ramGb: job.ramGb,
    },
  };
}
