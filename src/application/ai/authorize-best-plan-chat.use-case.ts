import { LRUCache } from 'lru-cache';
import { inject, injectable } from 'tsyringe';
import { bestChatLevel, SubscriptionRequiredError } from '../../domain/ai/chat-access.js';
import { ADMIN_CHAT_LEVEL } from '../../domain/billing/entitlements.js';
import type { ChatLevel } from '../../domain/billing/plan-catalogs.js';
import type { UserId } from '../../domain/shared/ids.js';
import type { Actor } from '../auth/actor.js';
import { UNIT_OF_WORK, type HotRead } from '../ports/unit-of-work.port.js';
import { pendingChatGrant, type PendingChatGrant } from './authorize-chat.use-case.js';

/** The level a caller's first call is reserved at before their plan is read. */
const LOWEST_LEVEL: ChatLevel = 'label';

/**
 * AuthorizeChat's grant for a caller who names no plan (the OpenAI-compatible API): the best chat
 * level among the caller's subscribed subscriptions pays (bestChatLevel; admins at network level),
 * or SubscriptionRequiredError when none is subscribed. The same single read, made by the
 * reservation's own statement when it can be (decision 0420).
 */
@injectable()
export class AuthorizeBestPlanChat {
  /**
   * The level each caller's best plan was last found to grant here: the level their next call's
   * reservation is taken for while the read confirms it. A wrong guess costs only a reservation
   * given back (ChatMetering opens the call again at the confirmed level).
   */
  private readonly bestLevels = new LRUCache<UserId, ChatLevel>({ max: 50_000 });

  constructor(@inject(UNIT_OF_WORK) private readonly uow: HotRead<'chatAccess'>) {}

  execute(actor: Actor): PendingChatGrant {
    const admin = actor.role === 'admin';
    const guess = admin ? ADMIN_CHAT_LEVEL : (this.bestLevels.get(actor.userId) ?? LOWEST_LEVEL);
    return pendingChatGrant(this.uow, actor, guess, (access) => {
      const grant = { actor, payer: actor.userId, byokProviders: access.byokProviders };
      if (admin) return { ...grant, level: ADMIN_CHAT_LEVEL };
      const level = bestChatLevel(access.subscriptions);
      if (!level) {
        this.bestLevels.delete(actor.userId);
        throw new SubscriptionRequiredError('An active subscription is required: subscribe to a plan to use the API');
      }
      this.bestLevels.set(actor.userId, level);
      return { ...grant, level };
    });
  }
}
