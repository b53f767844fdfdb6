import { asUserId, type UserId } from '../../domain/shared/ids.js';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import type { UserWork } from '../ports/unit-of-work.port.js';
import type { MetricsUserScope } from '../ports/scopes/metrics-scope.port.js';

/**
 * `/api/metrics/:userId/*` are the user's own figures, or any user's for an admin. Anyone else's
 * userId answers 404 as if it did not exist (CONTRACT.md 8: another user's resource is a 404;
 * the spec names no 403 here).
 */
export function metricsSubject(actor: Actor, userId: string): UserId {
  if (actor.userId !== userId && actor.role !== 'admin') throw new NotFoundError('Metrics');
  return asUserId(userId);
}

/** Reads as the subject user (RLS); an admin asking for a user that does not exist gets 404. */
export async function readAsMetricsSubject<T>(
  uow: UserWork<MetricsUserScope, 'metrics' | 'users'>,
  actor: Actor,
  userId: string,
  work: (s: Pick<MetricsUserScope, 'metrics' | 'users' | 'userId'>) => Promise<T>,
): Promise<T> {
  const subject = metricsSubject(actor, userId);
  return uow.asUser(subject, async (s) => {
    if (subject !== actor.userId && !(await s.users.me())) throw new NotFoundError('Metrics');
    return work(s);
  });
}
