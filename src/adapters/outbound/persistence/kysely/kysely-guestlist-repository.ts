import { sql, type Kysely, type Selectable } from 'kysely';
import type { Guest, Guestlist, GuestlistRepository } from '../../../../application/ports/guestlist-repository.port.js';
import type { Database, SkillGuestlistsTable, SkillGuestsTable } from './database.js';
import { isUuid } from './skill-state-ids.js';

export class KyselyGuestlistRepository implements GuestlistRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertList(userId: string, l: { name: string; capacity: number }): Promise<Guestlist> {
    const row = await this.db.insertInto('skill_guestlists').values({ user_id: userId, name: l.name, capacity: l.capacity }).returningAll().executeTakeFirstOrThrow();
    return toList(row);
  }

  async getList(id: string): Promise<Guestlist | null> {
    if (!isUuid(id)) return null;
    const row = await this.db.selectFrom('skill_guestlists').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toList(row) : null;
  }

  async lists(): Promise<Guestlist[]> {
    return (await this.db.selectFrom('skill_guestlists').selectAll().orderBy('created_at').orderBy('id').execute()).map(toList);
  }

  async takePlace(listId: string): Promise<boolean> {
    // one conditional update: concurrent adds queue on the row lock and the last place goes to one of them
    const r = await this.db
      .updateTable('skill_guestlists')
      .set({ guest_count: sql`guest_count + 1` })
      .where('id', '=', listId)
      .where(sql<boolean>`guest_count < capacity`)
      .executeTakeFirst();
    return r.numUpdatedRows === 1n;
  }

  async insertGuest(userId: string, g: { listId: string; name: string; email: string | null }): Promise<Guest> {
    const row = await this.db.insertInto('skill_guests').values({ user_id: userId, list_id: g.listId, name: g.name, email: g.email }).returningAll().executeTakeFirstOrThrow();
    return toGuest(row);
  }

  async removeGuest(listId: string, guestId: string): Promise<boolean> {
    if (!isUuid(guestId)) return false;
    const gone = await this.db.deleteFrom('skill_guests').where('id', '=', guestId).where('list_id', '=', listId).executeTakeFirst();
    if (gone.numDeletedRows !== 1n) return false;
    await this.db.updateTable('skill_guestlists').set({ guest_count: sql`guest_count - 1` }).where('id', '=', listId).execute();
    return true;
  }

  async checkIn(listId: string, guestId: string): Promise<{ guest: Guest; already: boolean } | null> {
    if (!isUuid(guestId)) return null;
    const row = await this.db
      .updateTable('skill_guests')
      .set({ checked_in_at: new Date() })
      .where('id', '=', guestId)
      .where('list_id', '=', listId)
      .where('checked_in_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (row) return { guest: toGuest(row), already: false };
    const current = await this.db.selectFrom('skill_guests').selectAll().where('id', '=', guestId).where('list_id', '=', listId).executeTakeFirst();
    return current ? { guest: toGuest(current), already: true } : null;
  }

  async guests(listId: string): Promise<Guest[]> {
    return (await this.db.selectFrom('skill_guests').selectAll().where('list_id', '=', listId).orderBy('created_at').orderBy('id').execute()).map(toGuest);
  }
}

const toList = (r: Selectable<SkillGuestlistsTable>): Guestlist => ({ id: r.id, name: r.name, capacity: r.capacity, guestCount: r.guest_count, createdAt: r.created_at });

const toGuest = (r: Selectable<SkillGuestsTable>): Guest => ({
  id: r.id, listId: r.list_id, name: r.name, email: r.email, checkedInAt: r.checked_in_at, createdAt: r.created_at,
});
