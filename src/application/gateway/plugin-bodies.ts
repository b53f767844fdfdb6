import { z } from 'zod';
import type { GatewayPluginId } from '../../domain/gateway/gateway-plugin-id.js';

/**
 * The gateway plugins' bodies (CONTRACT.md section 7 "gateway plugin bodies"), checked by
 * CallGatewayPlugin before any payment is asked for or taken (after the processor method's caller:
 * 401 first). `plugin` itself names the plugin and is removed first.
 */
const chatMessage = z.object({ role: z.enum(['user', 'assistant', 'system']), content: z.string().min(1).max(200_000) });

export const generateTextBody = z
  .object({
    prompt: z.string().min(1).max(200_000).optional(),
    messages: z.array(chatMessage).min(1).max(1000).optional(),
    model: z.string().min(1).max(200).optional(),
    max_tokens: z.number().int().min(1).max(1_000_000).optional(),
    temperature: z.number().min(0).max(2).optional(),
  })
  .refine((b) => (b.prompt === undefined) !== (b.messages === undefined), { message: 'give exactly one of prompt or messages' });

export const agentBody = z.object({
  task: z.string().min(1).max(32_000),
  agentId: z.string().uuid().optional(),
  maxSteps: z.number().int().min(1).max(10).optional(),
});

/** 4,096 characters: OpenAI's own speech input limit. */
export const ttsBody = z.object({
  text: z.string().min(1).max(4096),
  voice: z.string().min(1).max(64).optional(),
  format: z.enum(['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm']).optional(),
});

/** Base64 audio; the 1 MB body limit (CONTRACT.md section 8) bounds it to about 750 KB of audio. */
export const sttBody = z.object({
  audio: z.string().min(1).max(1_048_576).regex(/^[A-Za-z0-9+/]+={0,2}$/, 'audio must be base64'),
  format: z.enum(['mp3', 'mp4', 'mpeg', 'mpga', 'm4a', 'wav', 'webm', 'ogg', 'flac']).optional(),
  language: z.string().regex(/^[a-z]{2}$/, 'language must be an ISO-639-1 code').optional(),
});

export const GATEWAY_BODY_SCHEMAS = {
  'generate-text': generateTextBody,
  agent: agentBody,
  tts: ttsBody,
  stt: sttBody,
} as const satisfies Record<GatewayPluginId, z.ZodType>;
