import { z } from 'zod';
import type { WorkspaceSuite } from '../../../ports/workspace-suite.port.js';
import { defineAction } from '../define-action.js';

/** The `create_document` action of workspace-suite. */
export const createDocumentAction = ({ suite }: { suite: WorkspaceSuite }) =>
  defineAction({
    name: 'create_document',
    description: "Create a text document in the user's workspace suite.",
    capabilities: ['network'],
    input: z.strictObject({ action: z.literal('create_document'), title: z.string().trim().min(1).max(200), content: z.string().max(1_000_000) }),
    async run(ctx, { title, content }) {
      ctx.requireCapability('network');
      return await suite.createDocument(ctx.userId, { title, content }, ctx.signal);
    },
  });
