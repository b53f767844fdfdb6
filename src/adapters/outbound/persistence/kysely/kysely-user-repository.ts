import { sql, type Kysely } from 'kysely';
import { EmailInUseError } from '../../../../domain/accounts/accounts.errors.js';
import type { User } from '../../../../domain/accounts/user.js';
import type { UserId } from '../../../../domain/shared/ids.js';
import type { ProfileChanges, UserRepository } from '../../../../application/ports/user-repository.port.js';
import { isUniqueViolation } from '../pg-errors.js';
import type { Database } from './database.js';
import { toUser, USER_COLUMNS } from './user-row.js';

/** The acting user's row. No WHERE on the user id is needed for safety: RLS scopes every statement. */
export class KyselyUserRepository implements UserRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly userId: UserId,
  ) {}

  async me(): Promise<User | null> {
    const row = await this.db.selectFrom('users').select(USER_COLUMNS).where('id', '=', this.userId).executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async passwordHash(): Promise<string | null> {
    const row = await this.db.selectFrom('users').select('password_hash').where('id', '=', this.userId).executeTakeFirst();
    return row?.password_hash ?? null;
  }

  async update(changes: ProfileChanges): Promise<User | null> {
    try {
      const row = await this.db
        .updateTable('users')
        .set({
          ...(changes.name !== undefined ? { name: changes.name } : {}),
          ...(changes.notifications !== undefined ? { notifications: JSON.stringify(changes.notifications) } : {}),
          // A new address is unverified until its own link is followed: a trigger clears the mark
          // (app_user may not write email_verified_at at all).
          ...(changes.email !== undefined ? { email: changes.email } : {}),
          updated_at: sql<Date>`now()`,
        })
        .where('id', '=', this.userId)
        .returning(USER_COLUMNS)
        .executeTakeFirst();
      return row ? toUser(row) : null;
    } catch (err) {
      if (isUniqueViolation(err, 'users_email_key')) throw new EmailInUseError();
      throw err;
    }
  }

  async setPasswordHash(hash: string): Promise<void> {
    await this.db.updateTable('users').set({ password_hash: hash, updated_at: sql`now()` }).where('id', '=', this.userId).execute();
  }

  async lockForDelete(): Promise<boolean> {
    return (await this.db.selectFrom('users').select('id').where('id', '=', this.userId).forUpdate().executeTakeFirst()) !== undefined;
  }

  async delete(): Promise<boolean> {
    const r = await this.db.deleteFrom('users').where('id', '=', this.userId).executeTakeFirst();
    return r.numDeletedRows > 0n;
  }
}
