import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import type { DemoSubmission } from '../../ports/demo-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../../ports/unit-of-work.port.js';
import type { SkillAction, SkillHandler } from '../skill-handler.js';
import { action, iso, text } from './skill-inputs.js';

/**
 * demo-submitter: records the user's demo submissions (title, artist, optionally the label and a
 * link to the audio). Nothing is sent to a label: no label intake is integrated, so a submission
 * is stored with status `submitted` for the user to follow up.
 */
@injectable()
export class DemoSubmitterSkill implements SkillHandler {
  readonly slug = 'demo-submitter';
  readonly version = '1.0.0';
  readonly capabilities = [];
  readonly actions: readonly SkillAction[];

  constructor(@inject(UNIT_OF_WORK) uow: UserWork<'demos'>) {
    this.actions = [
      action({
        name: 'submit',
        description: 'Record a demo submission: title and artist, optionally the label it goes to and a link to the audio.',
        input: z.strictObject({ action: z.literal('submit'), title: text(200), artist: text(200), label: text(200).optional(), link: z.url({ protocol: /^https?$/ }).max(2048).optional() }),
        capabilities: [],
        run: async (ctx, input) => {
          const demo = await uow.asUser(ctx.userId, (s) => s.demos.insert(ctx.userId, { title: input.title, artist: input.artist, label: input.label ?? null, link: input.link ?? null }));
          return { demo: present(demo) };
        },
      }),
      action({
        name: 'list',
        description: "List the user's demo submissions, oldest first.",
        input: z.strictObject({ action: z.literal('list') }),
        capabilities: [],
        run: async (ctx) => {
          const demos = await uow.asUser(ctx.userId, (s) => s.demos.list());
          return { demos: demos.map(present), count: demos.length };
        },
      }),
    ];
  }
}

const present = (d: DemoSubmission) => ({ id: d.id, title: d.title, artist: d.artist, label: d.label, link: d.link, status: d.status, createdAt: iso(d.createdAt) });
