import { inject, injectable } from 'tsyringe';
import { roleFor } from '../../domain/accounts/account-rules.js';
import { SubscriptionRequiredError } from '../../domain/ai/chat-access.js';
import { ADMIN_CHAT_LEVEL, entitlementsOf } from '../../domain/billing/entitlements.js';
import { bestSubscription } from '../../domain/billing/profile-plan.js';
import type { ChatGrant } from '../ai/authorize-chat.use-case.js';
import { AUTH_SETTINGS, type AuthSettings } from '../auth/auth-settings.js';
import { NotFoundError } from '../errors.js';
import { UNIT_OF_WORK, type HotRead, type SystemStatements } from '../ports/unit-of-work.port.js';
import { sha256 } from '../shared/secret-tokens.js';
import { GatewayTokenInvalidError } from './runtime.errors.js';

/**
 * Who pays for an agent runtime's AI call (`POST /api/runtime/chat`): the gateway token is the
 * only credential accepted (a user's session, API key or JWT is just an unknown token here), found
 * by its sha256 through the system unit of work. The agent must be one of that instance's user's
 * (else 404). The grant is the owner's: the chat level of their best subscribed plan (network for
 * an admin, decided now from ADMIN_EMAILS and the owner's verified mark), their BYOK providers; no
 * subscription → 402 SUBSCRIPTION_REQUIRED. Metering then charges the owner like any chat call.
 */
@injectable()
export class AuthorizeRuntimeChat {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemStatements<'instances' | 'agents' | 'users'> & HotRead<'chatAccess'>,
    @inject(AUTH_SETTINGS) private readonly auth: AuthSettings,
  ) {}

  async execute(gatewayToken: string | undefined, agentId: string): Promise<ChatGrant> {
    if (!gatewayToken) throw new GatewayTokenInvalidError(true);
    const hash = sha256(gatewayToken);
    // On the path of every agent answer: two waves of independent statements, no transaction (all reads).
    const found = await this.uow.statementsAsSystem(async (s) => {
      const [userId, agent] = await Promise.all([s.instances.ownerOfToken(hash), s.agents.get(agentId)]);
      if (!userId) return null;
      if (!agent || agent.userId !== userId) return { userId, agent: null, user: null, access: null };
      const [user, access] = await Promise.all([s.users.findById(userId), this.uow.readAsUser(userId, 'chatAccess')]);
      return { userId, agent, user, access };
    });
    if (!found) throw new GatewayTokenInvalidError(false);
    if (!found.agent) throw new NotFoundError('Agent');
    if (!found.user || !found.access) throw new GatewayTokenInvalidError(false);
    const access = found.access;
    const grant = { payer: found.userId, byokProviders: access.byokProviders };
    if (roleFor(found.user.email, found.user.emailVerified, this.auth.adminEmails) === 'admin') return { ...grant, level: ADMIN_CHAT_LEVEL };
    const best = bestSubscription(access.subscriptions);
    if (!best) throw new SubscriptionRequiredError("The agent's owner has no active subscription");
    return { ...grant, level: entitlementsOf(best.plan).chatLevel };
  }
}
