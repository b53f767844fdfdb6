import { z } from 'zod';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action, text } from '../skill-inputs.js';
import { present } from './notes-workspace.shared.js';

/** The `add` action of notes-workspace. */
export const addAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'notes'> }) =>
  action({
    name: 'add',
    description: 'Store a note with a title and its content.',
    input: z.strictObject({ action: z.literal('add'), title: text(200), content: text(20_000) }),
    capabilities: [],
    run: async (ctx, input) => ({ note: present(await uow.asUser(ctx.userId, (s) => s.notes.insert(ctx.userId, input))) }),
  });
