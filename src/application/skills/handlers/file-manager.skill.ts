import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { FILE_STORAGE, type FileStorage } from '../../ports/file-storage.port.js';
import type { SkillHandler } from '../skill-handler.js';
import { defineAction } from './define-action.js';

/** A file's content, base64: at most 1 MB decoded, within the body limit. */
const BASE64_MAX_CHARS = Math.ceil((1024 * 1024) / 3) * 4;

/** file-manager: the user's file storage. No spec shape; ours is `list`, `upload {name, contentBase64}`, `download {fileId}`. */
@injectable()
export class FileManagerSkill implements SkillHandler {
  readonly slug = 'file-manager';
  readonly version = '1.0.0';
  readonly capabilities = ['network'] as const;
  readonly actions;

  constructor(@inject(FILE_STORAGE) files: FileStorage) {
    this.actions = [
      defineAction({
        name: 'list',
        description: "List the user's stored files.",
        capabilities: ['network'],
        input: z.strictObject({ action: z.literal('list') }),
        async run(ctx) {
          ctx.requireCapability('network');
          return { files: await files.list(ctx.userId, ctx.signal) };
        },
      }),
      defineAction({
        name: 'upload',
        description: 'Store a file (content base64-encoded, at most 1 MB).',
        capabilities: ['network'],
        input: z.strictObject({ action: z.literal('upload'), name: z.string().trim().min(1).max(255), contentBase64: z.base64().max(BASE64_MAX_CHARS) }),
        async run(ctx, { name, contentBase64 }) {
          ctx.requireCapability('network');
          return await files.put(ctx.userId, { name, contentBase64 }, ctx.signal);
        },
      }),
      defineAction({
        name: 'download',
        description: 'Fetch a stored file by its id (content base64-encoded).',
        capabilities: ['network'],
        input: z.strictObject({ action: z.literal('download'), fileId: z.string().trim().min(1).max(200) }),
        async run(ctx, { fileId }) {
          ctx.requireCapability('network');
          return { file: await files.get(ctx.userId, fileId, ctx.signal) };
        },
      }),
    ];
  }
}
