import { inject, injectable } from 'tsyringe';
import type { AiModel } from '../../domain/ai/ai-model.js';
import { bestChatLevel } from '../../domain/ai/chat-access.js';
import { modelsForLevel } from '../../domain/ai/model-catalog.js';
import { ADMIN_CHAT_LEVEL } from '../../domain/billing/entitlements.js';
import type { Actor } from '../auth/actor.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';
import { UNIT_OF_WORK, type HotRead, type UserWork } from '../ports/unit-of-work.port.js';

/** What a caller may name as a model: catalog models and their own agents. */
export interface CallerModels {
  /** The catalog models the caller's best subscribed plan may use (none without a subscription). */
  readonly models: readonly AiModel[];
  /** The caller's agents, oldest first. */
  readonly agents: readonly { readonly id: string; readonly createdAt: Date }[];
}

/**
 * The models the OpenAI-compatible API lists for its caller: the catalog within the best chat level
 * among their subscribed subscriptions (as AuthorizeBestPlanChat pays for them; admins
 * at network level), and each of their agents. Two reads, made at once.
 */
@injectable()
export class ListCallerModels {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: HotRead<'chatAccess'> & UserWork<AgentsUserScope, 'agents'>) {}

  async execute(actor: Actor): Promise<CallerModels> {
    const [access, agents] = await Promise.all([this.uow.readAsUser(actor.userId, 'chatAccess'), this.uow.asUser(actor.userId, (s) => s.agents.list())]);
    const level = actor.role === 'admin' ? ADMIN_CHAT_LEVEL : bestChatLevel(access.subscriptions);
    return { models: level ? modelsForLevel(level) : [], agents: agents.map((a) => ({ id: a.id, createdAt: a.createdAt })) };
  }
}
