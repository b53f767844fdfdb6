import { z } from 'zod';
import type { DjStreaming } from '../../../ports/dj-streaming.port.js';
import { defineAction } from '../define-action.js';

/** The `start` action of dj-streaming. */
export const startAction = ({ streams }: { streams: DjStreaming }) =>
  defineAction({
    name: 'start',
    description: 'Start a live DJ stream and return where to send it and where it plays.',
    capabilities: ['network'],
    input: z.strictObject({ action: z.literal('start'), title: z.string().trim().min(1).max(200) }),
    async run(ctx, { title }) {
      ctx.requireCapability('network');
      return { stream: await streams.start(ctx.userId, { title }, ctx.signal) };
    },
  });
