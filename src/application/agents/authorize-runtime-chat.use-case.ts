import { LRUCache } from 'lru-cache';
import { inject, injectable } from 'tsyringe';
import { roleFor } from '../../domain/accounts/account-rules.js';
import { SubscriptionRequiredError } from '../../domain/ai/chat-access.js';
import { ADMIN_CHAT_LEVEL, entitlementsOf } from '../../domain/billing/entitlements.js';
import { bestSubscription } from '../../domain/billing/profile-plan.js';
import type { ChatGrant, PendingChatGrant } from '../ai/authorize-chat.use-case.js';
import type { ChatLevel } from '../../domain/billing/plan-catalogs.js';
import type { UserId } from '../../domain/shared/ids.js';
import { AUTH_SETTINGS, type AuthSettings } from '../ports/auth-settings.port.js';
import { NotFoundError } from '../errors.js';
import { UNIT_OF_WORK, type SystemStatements } from '../ports/unit-of-work.port.js';
import type { AgentsSystemScope } from '../ports/scopes/agents-scope.port.js';
import type { RuntimeCaller } from '../ports/instance-repository.port.js';
import { sha256 } from '../shared/secret-tokens.js';
import { GatewayTokenInvalidError } from './runtime.errors.js';

/**
 * Who pays for an agent runtime's AI call (`POST /api/runtime/chat`): the gateway token is the
 * only credential accepted (a user's session, API key or JWT is just an unknown token here), found
 * by its sha256 with the rest of what decides the grant, in one system statement. The agent must
 * be one of that instance's user's (else 404). The grant is the owner's: the chat level of their best subscribed plan (network for
 * an admin, decided now from ADMIN_EMAILS and the owner's verified mark), their BYOK providers; no
 * subscription → 402 SUBSCRIPTION_REQUIRED. Metering then charges the owner like any chat call.
 * For a token granted before in this process, the same read is made by the call's reservation
 * statement (UsageMeter.reserveWithRuntimeCaller) instead of its own.
 */
@injectable()
export class AuthorizeRuntimeChat {
  /**
   * What the last call with a token (and agent) was granted, by the token's sha256: only a guess at
   * the payer and level for the next call's reservation, never trusted (each call is checked anew).
   */
  private readonly lastGranted = new LRUCache<string, { payer: UserId; level: ChatLevel }>({ max: 10_000 });

  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemStatements<AgentsSystemScope, 'instances'>,
    @inject(AUTH_SETTINGS) private readonly auth: AuthSettings,
  ) {}

  /**
   * The grant; pending (its payer and level those of this token's last call, its check on its way)
   * when the token was granted before in this process, so the call's units are reserved during the
   * check or with it (ChatMetering.open; `reserveWithCheck`: the check in the reservation's own
   * statement). The check's refusal is its confirmation's.
   */
  async execute(gatewayToken: string | undefined, agentId: string): Promise<ChatGrant | PendingChatGrant> {
    if (!gatewayToken) throw new GatewayTokenInvalidError(true);
    const tokenHash = sha256(gatewayToken);
    const key = `${tokenHash.toString('hex')}:${agentId}`;
    const last = this.lastGranted.get(key);
    // what the check decides is remembered for the token's next call, and a refusal forgets it
    const remember = (caller: RuntimeCaller | null): ChatGrant => {
      try {
        const grant = this.decide(caller);
        this.lastGranted.set(key, { payer: grant.payer, level: grant.level });
        return grant;
      } catch (refusal) {
        this.lastGranted.delete(key);
        throw refusal;
      }
    };
    const read = () => this.uow.statementsAsSystem((s) => s.instances.runtimeCaller(tokenHash, agentId)).then(remember);
    if (!last) return read();
    // the read starts when the confirmation is first asked for: not at all when the reservation's
    // statement makes the check (reserveWithCheck)
    let confirmation: Promise<ChatGrant> | undefined;
    return {
      ...last,
      get confirmation() {
        if (!confirmation) {
          confirmation = read();
          // awaited by whoever answers; never an unhandled rejection meanwhile
          confirmation.catch(() => undefined);
        }
        return confirmation;
      },
      reserveWithCheck: async (reservations, units) => {
        const r = await reservations.reserveWithRuntimeCaller(last.payer, units, tokenHash, agentId);
        return { taken: r.taken, available: r.available, confirm: () => remember(r.caller) };
      },
    };
  }

  /** The grant of a runtime call's caller (the token's instance and its user), or its refusal. */
  private decide(caller: RuntimeCaller | null): ChatGrant {
    if (!caller) throw new GatewayTokenInvalidError(false);
    if (!caller.ownsAgent) throw new NotFoundError('Agent');
    const grant = { payer: caller.userId, byokProviders: caller.byokProviders };
    let level: ChatLevel;
    if (roleFor(caller.email, caller.emailVerified, this.auth.adminEmails) === 'admin') level = ADMIN_CHAT_LEVEL;
    else {
      const best = bestSubscription(caller.subscriptions);
      if (!best) throw new SubscriptionRequiredError("The agent's owner has no active subscription");
      level = entitlementsOf(best.plan).chatLevel;
    }
    return { ...grant, level };
  }
}
