import { randomBytes } from 'node:crypto';
import type { UserId } from '../../src/domain/shared/ids.js';
import type { UnitOfWork } from '../../src/application/ports/unit-of-work.port.js';

/** A user row inserted through the system unit of work, with overridable fields (`emailVerified`: the address's verified mark, unset by default). */
export async function insertUser(uow: UnitOfWork, overrides: Partial<{ email: string; name: string; credits: number; emailVerified: boolean }> = {}) {
  const suffix = randomBytes(4).toString('hex');
  return uow.asSystem((s) =>
    s.users.insert({
      email: overrides.email ?? `user-${suffix}@example.test`,
      name: overrides.name ?? `User ${suffix}`,
      passwordHash: 'not-a-real-hash',
      referralCode: `R${suffix.toUpperCase()}`,
      referredBy: null,
      credits: overrides.credits ?? 0,
      ...(overrides.emailVerified ? { emailVerified: true } : {}),
    }),
  );
}

export const asId = (s: string) => s as UserId;
