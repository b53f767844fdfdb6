import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { NotFoundError } from '../../errors.js';
import type { Note } from '../../ports/note-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../../ports/unit-of-work.port.js';
import type { SkillAction, SkillHandler } from '../skill-handler.js';
import { action, id, iso, text } from './skill-inputs.js';

/** notes-workspace: the user's stored notes: add, get, and list (optionally matching a text). */
@injectable()
export class NotesWorkspaceSkill implements SkillHandler {
  readonly slug = 'notes-workspace';
  readonly version = '1.0.0';
  readonly capabilities = [];
  readonly actions: readonly SkillAction[];

  constructor(@inject(UNIT_OF_WORK) uow: UserWork<'notes'>) {
    this.actions = [
      action({
        name: 'add',
        description: 'Store a note with a title and its content.',
        input: z.strictObject({ action: z.literal('add'), title: text(200), content: text(20_000) }),
        capabilities: [],
        run: async (ctx, input) => ({ note: present(await uow.asUser(ctx.userId, (s) => s.notes.insert(ctx.userId, input))) }),
      }),
      action({
        name: 'get',
        description: 'Read one note by its id.',
        input: z.strictObject({ action: z.literal('get'), noteId: id }),
        capabilities: [],
        run: async (ctx, input) => {
          const note = await uow.asUser(ctx.userId, (s) => s.notes.get(input.noteId));
          if (!note) throw new NotFoundError('Note');
          return { note: present(note) };
        },
      }),
      action({
        name: 'list',
        description: "List the user's notes, newest first; with query, only those whose title or content contains it.",
        input: z.strictObject({ action: z.literal('list'), query: text(200).optional() }),
        capabilities: [],
        run: async (ctx, input) => {
          const notes = await uow.asUser(ctx.userId, (s) => s.notes.list(input.query));
          return { notes: notes.map(present), count: notes.length };
        },
      }),
    ];
  }
}

const present = (n: Note) => ({ id: n.id, title: n.title, content: n.content, createdAt: iso(n.createdAt) });
