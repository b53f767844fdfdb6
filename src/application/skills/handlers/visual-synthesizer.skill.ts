import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { IMAGE_GENERATOR, type ImageGenerator } from '../../ports/image-generator.port.js';
import type { SkillHandler } from '../skill-handler.js';
import { defineAction, shortText } from './define-action.js';

/** visual-synthesizer: spec "Known request shapes" `{prompt, style}`, no `action` field: one action, the body as is. */
@injectable()
export class VisualSynthesizerSkill implements SkillHandler {
  readonly slug = 'visual-synthesizer';
  readonly version = '1.0.0';
  readonly capabilities = ['network'] as const;
  readonly actions;

  constructor(@inject(IMAGE_GENERATOR) images: ImageGenerator) {
    this.actions = [
      defineAction({
        name: 'generate',
        description: 'Generate an image from a text prompt, optionally in a named style.',
        capabilities: ['network'],
        input: z.strictObject({ prompt: z.string().trim().min(1).max(2000), style: shortText().optional() }),
        async run(ctx, { prompt, style }) {
          ctx.requireCapability('network');
          return await images.generate({ prompt, style }, ctx.signal);
        },
      }),
    ];
  }
}
