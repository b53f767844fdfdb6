import type { Kysely, Selectable } from 'kysely';
import type { Escrow, EscrowRepository } from '../../../../application/ports/escrow-repository.port.js';
import type { Database, SkillEscrowsTable } from './database.js';

export class KyselyEscrowRepository implements EscrowRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(userId: string, e: Omit<Escrow, 'id' | 'status' | 'createdAt' | 'releasedAt'>): Promise<Escrow | null> {
    const row = await this.db
      .insertInto('skill_escrows')
      .values({
        user_id: userId, booking_id: e.bookingId, guarantee_cents: e.guaranteeCents, backend_cents: e.backendCents,
        deposit_cents: e.depositCents, amount_cents: e.amountCents,
      })
      .onConflict((oc) => oc.columns(['user_id', 'booking_id']).doNothing())
      .returningAll()
      .executeTakeFirst();
    return row ? toEscrow(row) : null;
  }

  async get(bookingId: string): Promise<Escrow | null> {
    const row = await this.db.selectFrom('skill_escrows').selectAll().where('booking_id', '=', bookingId).executeTakeFirst();
    return row ? toEscrow(row) : null;
  }

  async list(): Promise<Escrow[]> {
    const rows = await this.db.selectFrom('skill_escrows').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map(toEscrow);
  }

  async release(bookingId: string): Promise<{ escrow: Escrow; released: boolean } | null> {
    const row = await this.db
      .updateTable('skill_escrows')
      .set({ status: 'released', released_at: new Date() })
      .where('booking_id', '=', bookingId)
      .where('status', '=', 'held')
      .returningAll()
      .executeTakeFirst();
    if (row) return { escrow: toEscrow(row), released: true };
    const current = await this.get(bookingId);
    return current ? { escrow: current, released: false } : null;
  }

  async totals(): Promise<{ heldCents: number; releasedCents: number; held: number; released: number }> {
    const rows = await this.db
      .selectFrom('skill_escrows')
      .select((eb) => ['status', eb.fn.sum<string>('amount_cents').as('cents'), eb.fn.countAll<string>().as('n')])
      .groupBy('status')
      .execute();
    const by = (s: string) => rows.find((r) => r.status === s);
    return {
      heldCents: Number(by('held')?.cents ?? 0), releasedCents: Number(by('released')?.cents ?? 0),
      held: Number(by('held')?.n ?? 0), released: Number(by('released')?.n ?? 0),
    };
  }
}

const toEscrow = (r: Selectable<SkillEscrowsTable>): Escrow => ({
  id: r.id, bookingId: r.booking_id, guaranteeCents: Number(r.guarantee_cents), backendCents: Number(r.backend_cents),
  depositCents: Number(r.deposit_cents), amountCents: Number(r.amount_cents), status: r.status, createdAt: r.created_at, releasedAt: r.released_at,
});
