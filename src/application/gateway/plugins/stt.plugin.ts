import { inject, injectable } from 'tsyringe';
import { TranscribeAudio } from '../../ai/transcribe-audio.use-case.js';
import { InvalidInputError } from '../../errors.js';
import type { GatewayCall, GatewayPlugin, GatewayResult } from '../../ports/gateway-plugin.port.js';
import { chatPayment } from './payment.js';

/** The edge schema's body: base64 audio (bounded there), its type as an extension, and the spoken language. */
export interface SttInput {
  readonly audio: string;
  readonly format?: string | undefined;
  readonly language?: string | undefined;
}

/** `stt` `{audio, format?, language?}` → `message` is the transcript; 1 unit per started minute when metered. */
@injectable()
export class SttPlugin implements GatewayPlugin<SttInput> {
  readonly id = 'stt' as const;
  readonly name = 'Speech to text';

  constructor(@inject(TranscribeAudio) private readonly transcribe: TranscribeAudio) {}

  async run(call: GatewayCall<SttInput>): Promise<GatewayResult> {
    const audio = Buffer.from(call.input.audio, 'base64');
    // the schema checks the alphabet; a lone character or two still decodes to nothing
    if (audio.byteLength === 0) throw new InvalidInputError('VALIDATION_ERROR', 'audio decodes to no bytes', { details: [{ path: 'body/audio', message: 'decodes to no bytes' }] });
    const { text } = await this.transcribe.execute(chatPayment(call.payer), { audio, format: call.input.format, language: call.input.language }, call.signal);
    return { message: text };
  }
}
