import type { Selectable } from 'kysely';
import type { User } from '../../../../domain/accounts/user.js';
import type { UserId } from '../../../../domain/shared/ids.js';
import type { UsersTable } from './database.js';

export const USER_COLUMNS = [
  'id', 'email', 'name', 'email_verified_at', 'credits', 'referral_code',
  'notifications', 'two_factor_enabled', 'created_at', 'updated_at',
] as const;

type UserRow = Pick<Selectable<UsersTable>, (typeof USER_COLUMNS)[number]>;

export const toUser = (r: UserRow): User => ({
  id: r.id as UserId,
  email: r.email,
  name: r.name,
  emailVerified: r.email_verified_at !== null,
  credits: r.credits,
  referralCode: r.referral_code,
  notifications: r.notifications ?? {},
  twoFactorEnabled: r.two_factor_enabled,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
