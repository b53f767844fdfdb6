import { sql, type Kysely } from 'kysely';

/**
 * app_user may change only the columns a user changes about themselves: name, e-mail,
 * notification preferences, password hash (and the updated_at that goes with them). Credits,
 * the verified mark, the referral columns and two-factor state are written by the system role
 * only (webhook, metering, e-mail verification), so a user's unit of work cannot raise its own
 * credits or mark its own address verified, whatever SQL it manages to run.
 *
 * Changing the e-mail must still clear the verified mark: a trigger does it, so the rule holds
 * for every writer and app_user needs no privilege on email_verified_at (column privileges are
 * checked on the statement's SET list, not on what a BEFORE trigger changes in the new row).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  REVOKE UPDATE ON users FROM app_user;
  GRANT UPDATE (name, email, notifications, password_hash, updated_at) ON users TO app_user;

  CREATE FUNCTION users_email_change_unverifies() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    -- citext: a change of case only is the same address and stays verified.
    IF NEW.email IS DISTINCT FROM OLD.email THEN
      NEW.email_verified_at := NULL;
    END IF;
    RETURN NEW;
  END $$;
  CREATE TRIGGER users_email_change_unverifies BEFORE UPDATE OF email ON users
    FOR EACH ROW EXECUTE FUNCTION users_email_change_unverifies();
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `
  DROP TRIGGER users_email_change_unverifies ON users;
  DROP FUNCTION users_email_change_unverifies();
  REVOKE UPDATE ON users FROM app_user;
  GRANT UPDATE ON users TO app_user;
  `,
    )
    .execute(db);
}
