import { z } from 'zod';
import type { FileStorage } from '../../../ports/file-storage.port.js';
import { defineAction } from '../define-action.js';

/** The `list` action of file-manager. */
export const listAction = ({ files }: { files: FileStorage }) =>
  defineAction({
    name: 'list',
    description: "List the user's stored files.",
    capabilities: ['network'],
    input: z.strictObject({ action: z.literal('list') }),
    async run(ctx) {
      ctx.requireCapability('network');
      return { files: await files.list(ctx.userId, ctx.signal) };
    },
  });
