import { InstanceForbiddenError } from '../../domain/agents/agent.errors.js';
import type { Instance } from '../../domain/agents/instance.js';
import { DomainError } from '../../domain/shared/domain-error.js';
import { asUserId, type UserId } from '../../domain/shared/ids.js';
import type { Actor } from '../auth/actor.js';
import { NotFoundError, UpstreamUnavailableError } from '../errors.js';
import type { CommandAnswer } from '../ports/instance-commands.port.js';
import type { UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';

/**
 * `/api/instance/:userId` is its owner's, or an admin's: anyone else is 403 (the spec names 403
 * here, unlike the 404 of other users' resources). Returns the instance, 404 when there is none.
 */
export async function ownedInstance(uow: UserWork<AgentsUserScope, 'instances'>, actor: Actor, userId: string): Promise<{ userId: UserId; instance: Instance }> {
  if (actor.userId !== userId && actor.role !== 'admin') throw new InstanceForbiddenError();
  const id = asUserId(userId);
  const instance = await uow.asUser(id, (s) => s.instances.get());
  if (!instance) throw new NotFoundError('Instance');
  return { userId: id, instance };
}

/** The owner's failure, with its code (`UPSTREAM_UNAVAILABLE` → 502; anything else → 500). */
export class InstanceCommandFailedError extends DomainError {
  constructor(code: string, message: string) {
    super(code, message);
  }
}

/** The answer's value; a timeout is the runtime being unavailable (502), nothing was changed. */
export function valueOf(answer: CommandAnswer | null): unknown {
  if (answer === null) throw new UpstreamUnavailableError('agent runtime', 'The worker owning the instance did not answer in time');
  if (!answer.ok) throw new InstanceCommandFailedError(answer.code, answer.message);
  return answer.value;
}
