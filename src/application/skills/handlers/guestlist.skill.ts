import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { DomainError } from '../../../domain/shared/domain-error.js';
import { NotFoundError } from '../../errors.js';
import type { Guest, Guestlist } from '../../ports/guestlist-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../../ports/unit-of-work.port.js';
import type { SkillAction, SkillHandler } from '../skill-handler.js';
import { action, id, iso, text } from './skill-inputs.js';

/** Every place on the list is taken. HTTP 409. */
export class GuestlistFullError extends DomainError {
  constructor(listId: string, capacity: number) {
    super('GUESTLIST_FULL', `The guestlist is full (${capacity} guests)`, { listId, capacity });
  }
}

/** guestlist: the user's guestlists with a capacity; guests are added while places are free, removed, and checked in once. */
@injectable()
export class GuestlistSkill implements SkillHandler {
  readonly slug = 'guestlist';
  readonly version = '1.0.0';
  readonly capabilities = [];
  readonly actions: readonly SkillAction[];

  constructor(@inject(UNIT_OF_WORK) uow: UserWork<'guestlists'>) {
    this.actions = [
      action({
        name: 'create_list',
        description: 'Create a guestlist with a name and a capacity (the most guests it holds).',
        input: z.strictObject({ action: z.literal('create_list'), name: text(200), capacity: z.number().int().positive().max(1_000_000) }),
        capabilities: [],
        run: async (ctx, input) => ({ guestlist: presentList(await uow.asUser(ctx.userId, (s) => s.guestlists.insertList(ctx.userId, input))) }),
      }),
      action({
        name: 'add',
        description: 'Add a guest to a guestlist while it has a free place.',
        input: z.strictObject({ action: z.literal('add'), listId: id, name: text(200), email: z.email().max(320).optional() }),
        capabilities: [],
        run: async (ctx, input) =>
          uow.asUser(ctx.userId, async (s) => {
            const list = await s.guestlists.getList(input.listId);
            if (!list) throw new NotFoundError('Guestlist');
            if (!(await s.guestlists.takePlace(list.id))) throw new GuestlistFullError(list.id, list.capacity);
            const guest = await s.guestlists.insertGuest(ctx.userId, { listId: list.id, name: input.name, email: input.email ?? null });
            return { guest: presentGuest(guest) };
          }),
      }),
      action({
        name: 'remove',
        description: 'Remove a guest from a guestlist, freeing the place.',
        input: z.strictObject({ action: z.literal('remove'), listId: id, guestId: id }),
        capabilities: [],
        run: async (ctx, input) =>
          uow.asUser(ctx.userId, async (s) => {
            const list = await s.guestlists.getList(input.listId);
            if (!list || !(await s.guestlists.removeGuest(list.id, input.guestId))) throw new NotFoundError('Guest');
            return { removed: true, guestId: input.guestId };
          }),
      }),
      action({
        name: 'check_in',
        description: 'Check a guest in at the door; checking in again keeps the first time.',
        input: z.strictObject({ action: z.literal('check_in'), listId: id, guestId: id }),
        capabilities: [],
        run: async (ctx, input) =>
          uow.asUser(ctx.userId, async (s) => {
            const list = await s.guestlists.getList(input.listId);
            const result = list ? await s.guestlists.checkIn(list.id, input.guestId) : null;
            if (!result) throw new NotFoundError('Guest');
            return { guest: presentGuest(result.guest), alreadyCheckedIn: result.already };
          }),
      }),
      action({
        name: 'list',
        description: "With a listId, that guestlist and its guests; without, all the user's guestlists.",
        input: z.strictObject({ action: z.literal('list'), listId: id.optional() }),
        capabilities: [],
        run: async (ctx, input) =>
          uow.asUser(ctx.userId, async (s) => {
            if (input.listId === undefined) {
              const lists = await s.guestlists.lists();
              return { guestlists: lists.map(presentList), count: lists.length };
            }
            const list = await s.guestlists.getList(input.listId);
            if (!list) throw new NotFoundError('Guestlist');
            const guests = await s.guestlists.guests(list.id);
            return { guestlist: presentList(list), guests: guests.map(presentGuest), checkedIn: guests.filter((g) => g.checkedInAt).length };
          }),
      }),
    ];
  }
}

const presentList = (l: Guestlist) => ({ listId: l.id, name: l.name, capacity: l.capacity, guests: l.guestCount, remaining: l.capacity - l.guestCount, createdAt: iso(l.createdAt) });

const presentGuest = (g: Guest) => ({ guestId: g.id, listId: g.listId, name: g.name, email: g.email, checkedInAt: iso(g.checkedInAt), createdAt: iso(g.createdAt) });
