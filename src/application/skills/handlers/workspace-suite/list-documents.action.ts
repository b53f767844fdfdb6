import { z } from 'zod';
import type { WorkspaceSuite } from '../../../ports/workspace-suite.port.js';
import { defineAction } from '../define-action.js';

/** The `list_documents` action of workspace-suite. */
export const listDocumentsAction = ({ suite }: { suite: WorkspaceSuite }) =>
  defineAction({
    name: 'list_documents',
    description: "List the documents in the user's workspace suite.",
    capabilities: ['network'],
    input: z.strictObject({ action: z.literal('list_documents') }),
    async run(ctx) {
      ctx.requireCapability('network');
      return { documents: await suite.listDocuments(ctx.userId, ctx.signal) };
    },
  });
