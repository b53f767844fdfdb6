import { inject, injectable } from 'tsyringe';
import { DJ_STREAMING, type DjStreaming } from '../../../ports/dj-streaming.port.js';
import type { SkillHandler } from '../../skill-handler.js';
import { startAction } from './start.action.js';
import { stopAction } from './stop.action.js';

/** dj-streaming: live DJ streams. No spec shape; ours is `start {title}` and `stop {streamId}`. */
@injectable()
export class DjStreamingSkill implements SkillHandler {
  readonly slug = 'dj-streaming';
  readonly version = '1.0.0';
  readonly capabilities = ['network'] as const;
  readonly actions;

  constructor(@inject(DJ_STREAMING) streams: DjStreaming) {
    this.actions = [
      startAction({ streams }),
      stopAction({ streams }),
    ];
  }
}
