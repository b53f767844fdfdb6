import { inject, injectable } from 'tsyringe';
import { roleFor } from '../../domain/accounts/account-rules.js';
import { SubscriptionRequiredError } from '../../domain/ai/chat-access.js';
import { ADMIN_CHAT_LEVEL, entitlementsOf } from '../../domain/billing/entitlements.js';
import { bestSubscription } from '../../domain/billing/profile-plan.js';
import type { ChatGrant } from '../ai/authorize-chat.use-case.js';
import { AUTH_SETTINGS, type AuthSettings } from '../ports/auth-settings.port.js';
import { NotFoundError } from '../errors.js';
import { UNIT_OF_WORK, type SystemStatements } from '../ports/unit-of-work.port.js';
import { sha256 } from '../shared/secret-tokens.js';
import { GatewayTokenInvalidError } from './runtime.errors.js';

/**
 * Who pays for an agent runtime's AI call (`POST /api/runtime/chat`): the gateway token is the
 * only credential accepted (a user's session, API key or JWT is just an unknown token here), found
 * by its sha256 with the rest of what decides the grant, in one system statement. The agent must
 * be one of that instance's user's (else 404). The grant is the owner's: the chat level of their best subscribed plan (network for
 * an admin, decided now from ADMIN_EMAILS and the owner's verified mark), their BYOK providers; no
 * subscription → 402 SUBSCRIPTION_REQUIRED. Metering then charges the owner like any chat call.
 */
@injectable()
export class AuthorizeRuntimeChat {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemStatements<'instances'>,
    @inject(AUTH_SETTINGS) private readonly auth: AuthSettings,
  ) {}

  async execute(gatewayToken: string | undefined, agentId: string): Promise<ChatGrant> {
    if (!gatewayToken) throw new GatewayTokenInvalidError(true);
    // On the path of every agent answer: one statement, no transaction (a read).
    const caller = await this.uow.statementsAsSystem((s) => s.instances.runtimeCaller(sha256(gatewayToken), agentId));
    if (!caller) throw new GatewayTokenInvalidError(false);
    if (!caller.ownsAgent) throw new NotFoundError('Agent');
    const grant = { payer: caller.userId, byokProviders: caller.byokProviders };
    if (roleFor(caller.email, caller.emailVerified, this.auth.adminEmails) === 'admin') return { ...grant, level: ADMIN_CHAT_LEVEL };
    const best = bestSubscription(caller.subscriptions);
    if (!best) throw new SubscriptionRequiredError("The agent's owner has no active subscription");
    return { ...grant, level: entitlementsOf(best.plan).chatLevel };
  }
}
