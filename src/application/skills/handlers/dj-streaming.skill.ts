import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { DJ_STREAMING, type DjStreaming } from '../../ports/dj-streaming.port.js';
import type { SkillHandler } from '../skill-handler.js';
import { defineAction } from './define-action.js';

/** dj-streaming: live DJ streams. No spec shape; ours is `start {title}` and `stop {streamId}`. */
@injectable()
export class DjStreamingSkill implements SkillHandler {
  readonly slug = 'dj-streaming';
  readonly version = '1.0.0';
  readonly capabilities = ['network'] as const;
  readonly actions;

  constructor(@inject(DJ_STREAMING) streams: DjStreaming) {
    this.actions = [
      defineAction({
        name: 'start',
        description: 'Start a live DJ stream and return where to send it and where it plays.',
        capabilities: ['network'],
        input: z.strictObject({ action: z.literal('start'), title: z.string().trim().min(1).max(200) }),
        async run(ctx, { title }) {
          ctx.requireCapability('network');
          return { stream: await streams.start(ctx.userId, { title }, ctx.signal) };
        },
      }),
      defineAction({
        name: 'stop',
        description: 'Stop a live DJ stream by its id.',
        capabilities: ['network'],
        input: z.strictObject({ action: z.literal('stop'), streamId: z.string().trim().min(1).max(200) }),
        async run(ctx, { streamId }) {
          ctx.requireCapability('network');
          return { stream: await streams.stop(ctx.userId, streamId, ctx.signal) };
        },
      }),
    ];
  }
}
