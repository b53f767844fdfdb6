import { inject, injectable } from 'tsyringe';
import { SynthesizeSpeech, type SpeechInput } from '../../ai/synthesize-speech.use-case.js';
import type { GatewayCall, GatewayPlugin, GatewayResult } from '../../ports/gateway-plugin.port.js';
import { chatPayment } from './payment.js';

/** `tts` `{text, voice?, format?}` → `message: {audio (base64), format}`; 1 unit per 1,000 characters when metered. */
@injectable()
export class TtsPlugin implements GatewayPlugin<SpeechInput> {
  readonly id = 'tts' as const;
  readonly name = 'Text to speech';

  constructor(@inject(SynthesizeSpeech) private readonly speech: SynthesizeSpeech) {}

  async run(call: GatewayCall<SpeechInput>): Promise<GatewayResult> {
    const { audio, format } = await this.speech.execute(chatPayment(call.payer), call.input, call.signal);
    return { message: { audio: Buffer.from(audio).toString('base64'), format } };
  }
}
