import { z } from 'zod';
import type { ImageGenerator } from '../../../ports/image-generator.port.js';
import { defineAction, shortText } from '../define-action.js';

/** The `generate` action of visual-synthesizer. */
export const generateAction = ({ images }: { images: ImageGenerator }) =>
  defineAction({
    name: 'generate',
    description: 'Generate an image from a text prompt, optionally in a named style.',
    capabilities: ['network'],
    input: z.strictObject({ prompt: z.string().trim().min(1).max(2000), style: shortText().optional() }),
    async run(ctx, { prompt, style }) {
      ctx.requireCapability('network');
      return await images.generate({ prompt, style }, ctx.signal);
    },
  });
