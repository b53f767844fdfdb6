import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { WORKSPACE_SUITE, type WorkspaceSuite } from '../../ports/workspace-suite.port.js';
import type { SkillHandler } from '../skill-handler.js';
import { defineAction } from './define-action.js';

/** workspace-suite: the user's office suite. No spec shape; ours is `list_documents` and `create_document {title, content}`. */
@injectable()
export class WorkspaceSuiteSkill implements SkillHandler {
  readonly slug = 'workspace-suite';
  readonly version = '1.0.0';
  readonly capabilities = ['network'] as const;
  readonly actions;

  constructor(@inject(WORKSPACE_SUITE) suite: WorkspaceSuite) {
    this.actions = [
      defineAction({
        name: 'list_documents',
        description: "List the documents in the user's workspace suite.",
        capabilities: ['network'],
        input: z.strictObject({ action: z.literal('list_documents') }),
        async run(ctx) {
          ctx.requireCapability('network');
          return { documents: await suite.listDocuments(ctx.userId, ctx.signal) };
        },
      }),
      defineAction({
        name: 'create_document',
        description: "Create a text document in the user's workspace suite.",
        capabilities: ['network'],
        input: z.strictObject({ action: z.literal('create_document'), title: z.string().trim().min(1).max(200), content: z.string().max(1_000_000) }),
        async run(ctx, { title, content }) {
          ctx.requireCapability('network');
          return await suite.createDocument(ctx.userId, { title, content }, ctx.signal);
        },
      }),
    ];
  }
}
