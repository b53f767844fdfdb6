import { z } from 'zod';
import type { DjStreaming } from '../../../ports/dj-streaming.port.js';
import { defineAction } from '../define-action.js';

/** The `stop` action of dj-streaming. */
export const stopAction = ({ streams }: { streams: DjStreaming }) =>
  defineAction({
    name: 'stop',
    description: 'Stop a live DJ stream by its id.',
    capabilities: ['network'],
    input: z.strictObject({ action: z.literal('stop'), streamId: z.string().trim().min(1).max(200) }),
    async run(ctx, { streamId }) {
      ctx.requireCapability('network');
      return { stream: await streams.stop(ctx.userId, streamId, ctx.signal) };
    },
  });
