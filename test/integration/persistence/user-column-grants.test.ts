import { describe, expect, it } from 'vitest';
import { insertUser } from '../../support/builders.js';
import { openTestPersistence } from '../../support/persistence.js';
import { sqlAsUser } from '../../support/sql-as-user.js';

const { pools, uow } = await openTestPersistence();

/** Raw SQL as app_user in the user's own unit of work (its own row is visible), rolled back afterwards. */
const asUser = sqlAsUser(pools);

const row = async (id: string) =>
  (await pools.owner.query('select name, email, credits, email_verified_at, notifications, password_hash from users where id = $1', [id])).rows[0];

describe('what app_user may change in its own users row', () => {
  it('when a user tries to raise their own credits or mark their own e-mail verified, then permission is denied', async () => {
    const u = await insertUser(uow, { credits: 3 });
    const attempts = [
      `update users set credits = credits + 1000 where id = $1`,
      `update users set email_verified_at = now() where id = $1`,
      `update users set referral_code = 'MINE' where id = $1`,
      `update users set referred_by = null where id = $1`,
      `update users set name = 'x', credits = 1000000 where id = $1`,
    ];
    for (const sql of attempts) await expect(asUser(u.id, sql, [u.id]), sql).rejects.toThrow(/permission denied/);
    expect(await row(u.id)).toMatchObject({ credits: 3, email_verified_at: null });
  });

  it('app_user may update exactly these columns of users, and no column of it table-wide', async () => {
    const cols = await pools.owner.query(`
      select column_name as c from information_schema.column_privileges
       where grantee = 'app_user' and table_schema = 'public' and table_name = 'users' and privilege_type = 'UPDATE' order by 1`);
    expect(cols.rows.map((r) => r.c)).toEqual(['email', 'name', 'notifications', 'password_hash', 'updated_at']);
    const table = await pools.owner.query(`
      select string_agg(privilege_type, ',' order by privilege_type) as p from information_schema.role_table_grants
       where grantee = 'app_user' and table_schema = 'public' and table_name = 'users'`);
    expect(table.rows[0].p).toBe('DELETE,SELECT');
  });

  it('when a user changes name, notifications, e-mail and password through their unit of work, then it works', async () => {
    const u = await insertUser(uow);
    const email = `renamed-${u.id.slice(0, 8)}@example.test`;
    const updated = await uow.asUser(u.id, (s) => s.users.update({ name: 'New Name', notifications: { product: false }, email }));
    expect(updated).toMatchObject({ name: 'New Name', email, notifications: { product: false } });
    await uow.asUser(u.id, (s) => s.users.setPasswordHash('another-hash'));
    expect(await row(u.id)).toMatchObject({ name: 'New Name', email, password_hash: 'another-hash' });
  });

  it('when a verified user changes their e-mail, then the mark is cleared; the same address in another case keeps it', async () => {
    const u = await insertUser(uow);
    expect(await uow.asSystem((s) => s.users.markEmailVerified(u.id, u.email))).toBe(true);
    expect((await uow.asUser(u.id, (s) => s.users.update({ name: 'Same Mail' })))?.emailVerified).toBe(true);
    expect((await uow.asUser(u.id, (s) => s.users.update({ email: u.email.toUpperCase() })))?.emailVerified).toBe(true);
    const moved = await uow.asUser(u.id, (s) => s.users.update({ email: `moved-${u.id.slice(0, 8)}@example.test` }));
    expect(moved?.emailVerified).toBe(false);
    expect((await row(u.id)).email_verified_at).toBeNull();
  });

  it('when the system role writes credits and the verified mark, then it still can', async () => {
    const u = await insertUser(uow);
    await uow.asSystem(async (s) => {
      await s.users.addCredits(u.id, 7);
      await s.users.markEmailVerified(u.id, u.email);
    });
    expect(await row(u.id)).toMatchObject({ credits: 7, email_verified_at: expect.any(Date) });
  });
});
