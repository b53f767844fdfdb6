import { z } from 'zod';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action, text } from '../skill-inputs.js';
import { present } from './demo-submitter.shared.js';

/** The `submit` action of demo-submitter. */
export const submitAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'demos'> }) =>
  action({
    name: 'submit',
    description: 'Record a demo submission: title and artist, optionally the label it goes to and a link to the audio.',
    input: z.strictObject({ action: z.literal('submit'), title: text(200), artist: text(200), label: text(200).optional(), link: z.url({ protocol: /^https?$/ }).max(2048).optional() }),
    capabilities: [],
    run: async (ctx, input) => {
      const demo = await uow.asUser(ctx.userId, (s) => s.demos.insert(ctx.userId, { title: input.title, artist: input.artist, label: input.label ?? null, link: input.link ?? null }));
      return { demo: present(demo) };
    },
  });
