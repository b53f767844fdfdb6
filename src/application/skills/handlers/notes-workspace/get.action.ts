import { z } from 'zod';
import { NotFoundError } from '../../../errors.js';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action, id } from '../skill-inputs.js';
import { present } from './notes-workspace.shared.js';

/** The `get` action of notes-workspace. */
export const getAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'notes'> }) =>
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
  });
