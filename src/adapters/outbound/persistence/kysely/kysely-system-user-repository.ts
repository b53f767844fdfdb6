import { sql, type Kysely } from 'kysely';
import { EmailInUseError } from '../../../../domain/accounts/accounts.errors.js';
import type { User } from '../../../../domain/accounts/user.js';
import type { UserId } from '../../../../domain/shared/ids.js';
import type { NewUser, SystemUserRepository } from '../../../../application/ports/user-repository.port.js';
import { isUniqueViolation } from '../pg-errors.js';
import type { Database } from './database.js';
import { toUser, USER_COLUMNS } from './user-row.js';

export class KyselySystemUserRepository implements SystemUserRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async findByEmail(email: string) {
    const row = await this.db.selectFrom('users').select([...USER_COLUMNS, 'password_hash']).where('email', '=', email).executeTakeFirst();
    return row ? { ...toUser(row), passwordHash: row.password_hash } : null;
  }

  async findById(id: UserId): Promise<User | null> {
    const row = await this.db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async findIdByReferralCode(code: string): Promise<UserId | null> {
    const row = await this.db.selectFrom('users').select('id').where('referral_code', '=', code).executeTakeFirst();
    return (row?.id as UserId | undefined) ?? null;
  }

  async insert(u: NewUser): Promise<User> {
    try {
      const row = await this.db
        .insertInto('users')
        .values({
          email: u.email,
          name: u.name,
          password_hash: u.passwordHash,
          referral_code: u.referralCode,
          referred_by: u.referredBy,
          credits: u.credits,
          email_verified_at: u.emailVerified ? sql`now()` : null,
        })
        .returning(USER_COLUMNS)
        .executeTakeFirstOrThrow();
      return toUser(row);
    } catch (err) {
      if (isUniqueViolation(err, 'users_email_key')) throw new EmailInUseError();
      throw err;
    }
  }

  async addCredits(id: UserId, credits: number): Promise<void> {
    await this.db.updateTable('users').set({ credits: sql`credits + ${credits}`, updated_at: sql`now()` }).where('id', '=', id).execute();
  }

  async markEmailVerified(id: UserId, email: string): Promise<boolean> {
    // Only the address the link was sent to: a link for an old address verifies nothing.
    const r = await this.db
      .updateTable('users')
      .set({ email_verified_at: sql`coalesce(email_verified_at, now())` })
      .where('id', '=', id)
      .where('email', '=', email)
      .executeTakeFirst();
    return r.numUpdatedRows > 0n;
  }

  async setPasswordHash(id: UserId, hash: string): Promise<void> {
    await this.db.updateTable('users').set({ password_hash: hash, updated_at: sql`now()` }).where('id', '=', id).execute();
  }
}
