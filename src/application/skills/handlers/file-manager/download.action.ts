import { z } from 'zod';
import type { FileStorage } from '../../../ports/file-storage.port.js';
import { defineAction } from '../define-action.js';

/** The `download` action of file-manager. */
export const downloadAction = ({ files }: { files: FileStorage }) =>
  defineAction({
    name: 'download',
    description: 'Fetch a stored file by its id (content base64-encoded).',
    capabilities: ['network'],
    input: z.strictObject({ action: z.literal('download'), fileId: z.string().trim().min(1).max(200) }),
    async run(ctx, { fileId }) {
      ctx.requireCapability('network');
      return { file: await files.get(ctx.userId, fileId, ctx.signal) };
    },
  });
