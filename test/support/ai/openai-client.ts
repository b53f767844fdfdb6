import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import OpenAI from 'openai';
import { call, type SignedIn } from '../http-client.js';

/** A new API key of the signed-in user (`sk_...`). */
export async function apiKeyOf(app: FastifyInstance, user: SignedIn): Promise<string> {
  const res = await call(app, { method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: 'openai sdk' } });
  if (res.status !== 201 && res.status !== 200) throw new Error(`POST /api/keys answered ${res.status}`);
  return res.body.key as string;
}

/** The official OpenAI SDK pointed at the listening service's `/v1`, as a user of it would set it up. */
export function openAiClient(app: FastifyInstance, apiKey: string, o: { maxRetries?: number } = {}): OpenAI {
  const { port } = app.server.address() as AddressInfo;
  return new OpenAI({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey, maxRetries: o.maxRetries ?? 2, timeout: 30_000 });
}
