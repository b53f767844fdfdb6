import { z } from 'zod';
import type { FileStorage } from '../../../ports/file-storage.port.js';
import { defineAction } from '../define-action.js';
import { BASE64_MAX_CHARS } from './file-manager.shared.js';

/** The `upload` action of file-manager. */
export const uploadAction = ({ files }: { files: FileStorage }) =>
  defineAction({
    name: 'upload',
    description: 'Store a file (content base64-encoded, at most 1 MB).',
    capabilities: ['network'],
    input: z.strictObject({ action: z.literal('upload'), name: z.string().trim().min(1).max(255), contentBase64: z.base64().max(BASE64_MAX_CHARS) }),
    async run(ctx, { name, contentBase64 }) {
      ctx.requireCapability('network');
      return await files.put(ctx.userId, { name, contentBase64 }, ctx.signal);
    },
  });
