import { z } from 'zod';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action, text } from '../skill-inputs.js';
import { present } from './notes-workspace.shared.js';

/** The `list` action of notes-workspace. */
export const listAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'notes'> }) =>
  action({
    name: 'list',
    description: "List the user's notes, newest first; with query, only those whose title or content contains it.",
    input: z.strictObject({ action: z.literal('list'), query: text(200).optional() }),
    capabilities: [],
    run: async (ctx, input) => {
      const notes = await uow.asUser(ctx.userId, (s) => s.notes.list(input.query));
      return { notes: notes.map(present), count: notes.length };
    },
  });
