import { inject, injectable } from 'tsyringe';
import { IMAGE_GENERATOR, type ImageGenerator } from '../../../ports/image-generator.port.js';
import type { SkillHandler } from '../../skill-handler.js';
import { generateAction } from './generate.action.js';

/** visual-synthesizer: spec "Known request shapes" `{prompt, style}`, no `action` field: one action, the body as is. */
@injectable()
export class VisualSynthesizerSkill implements SkillHandler {
  readonly slug = 'visual-synthesizer';
  readonly version = '1.0.0';
  readonly capabilities = ['network'] as const;
  readonly actions;

  constructor(@inject(IMAGE_GENERATOR) images: ImageGenerator) {
    this.actions = [generateAction({ images })];
  }
}
