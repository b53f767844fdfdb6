import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeFleet } from '../../support/ai/fake-ai-fleet.js';
import { chat, hi, parseSse, patientBreakers, rawPost, reservationsOf, subscribe, unitsUsed } from '../../support/ai/chat-fixtures.js';
import { signUpAndIn, type SignedIn } from '../../support/http-client.js';
import { startTestApp } from '../../support/test-app.js';

const fleet = await startFakeFleet();
afterAll(() => fleet.close());
const { app, container, infra } = await startTestApp({ env: { ...fleet.env, RATE_LIMIT_CHAT: '10000' }, override: patientBreakers });
const owner = infra.pools.owner;
await app.listen({ host: '127.0.0.1', port: 0 });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

const sse = { accept: 'text/event-stream' };

beforeEach(() => {
  fleet.setAll({ kind: 'reply' });
  for (const s of Object.values(fleet.servers)) s.requests.length = 0;
});

async function subscriber(plan: string) {
  const user = await signUpAndIn(app);
  return { user, sub: await subscribe(owner, user.id, plan) };
}

function rawChat(user: SignedIn, sub: string, body: unknown, extra: Record<string, string> = sse) {
  return rawPost(`${base}/api/ai/chat`, { ...user.headers, ...extra, 'x-user-plan': 'network', 'x-payment-subscription-id': sub }, body);
}

/**
 * Reads the response body until `enough(text)`, then returns what was read and leaves the response
 * open, paused (leaving a `for await` early would destroy it: the client would be gone before the
 * test says so).
 */
function readUntil(res: IncomingMessage, enough: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += String(chunk);
      if (!enough(text)) return;
      res.off('data', onData);
      res.pause();
      resolve(text);
    };
    res.on('data', onData);
    res.once('error', reject);
    res.once('end', () => reject(new Error(`the response ended before enough was read: ${text}`)));
  });
}

describe.each([
  ['openrouter', 'meta-llama/llama-3.3-70b-instruct'],
  ['openai', 'openai/gpt-4o-mini'],
  ['anthropic', 'anthropic/claude-3-5-haiku-20241022'],
  ['google', 'google/gemini-2.0-flash'],
  ['ollama', 'ollama/llama3.2'],
] as const)('POST /api/ai/chat streamed from %s', (provider, model) => {
  it('answers server-sent events: start, the deltas, then done with the whole answer and usage; charges the real usage', async () => {
    const { user, sub } = await subscriber('network');
    const res = await chat(app, user, { plan: 'network', subscription: sub, body: { messages: hi, model }, headers: sse });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.headers['x-request-id']).toBeDefined();
    const events = parseSse(res.body as string);
    expect(events[0]).toEqual({ event: 'start', data: { model, provider } });
    expect(events.filter((e) => e.event === 'delta').map((e) => e.data.content)).toEqual(['Hello', ', ', 'world', '!']);
    const done = events[events.length - 1]!;
    expect(done.event).toBe('done');
    expect(done.data).toEqual({
      id: expect.any(String), model, provider,
      message: { role: 'assistant', content: 'Hello, world!' },
      usage: { promptTokens: 12, completionTokens: 4, totalTokens: 16 },
      timestamp: expect.any(String),
    });
    expect((await unitsUsed(container, user.id)).used).toBe(1);
  });
});

describe('POST /api/ai/chat streamed: failures', () => {
  it('a provider failing before the first event falls back, and when all fail answers 500 PROVIDER_ERROR as JSON', async () => {
    fleet.server('openrouter').setBehaviour({ kind: 'error', status: 500 });
    const { user, sub } = await subscriber('label');
    const ok = await chat(app, user, { plan: 'label', subscription: sub, headers: sse });
    expect(ok.status).toBe(200);
    expect(parseSse(ok.body as string)[0]!.data.provider).toBe('openai');
    fleet.setAll({ kind: 'error', status: 500 });
    const res = await chat(app, user, { plan: 'label', subscription: sub, headers: sse });
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('PROVIDER_ERROR');
    expect((await unitsUsed(container, user.id)).used).toBe(1);
  });

  it('a provider error mid-stream ends the stream with an error event and charges nothing', async () => {
    fleet.setAll({ kind: 'stream-error', chunks: ['Hel', 'lo'] });
    const { user, sub } = await subscriber('network');
    const res = await chat(app, user, { plan: 'network', subscription: sub, body: { messages: hi, model: 'openai/gpt-4o' }, headers: sse });
    expect(res.status).toBe(200);
    const events = parseSse(res.body as string);
    expect(events.map((e) => e.event)).toEqual(['start', 'delta', 'delta', 'error']);
    expect(events[3]!.data).toEqual({ error: expect.any(String), code: 'PROVIDER_ERROR' });
    expect((await unitsUsed(container, user.id)).used).toBe(0);
  });
});

describe('POST /api/ai/chat: a client that disconnects', () => {
  it('mid-stream: the provider call is cancelled and the reservation settled to what was sent', async () => {
    // the provider sends two deltas, then holds the connection open
    fleet.setAll({ kind: 'stall', chunks: ['Hel', 'lo'] });
    const { user, sub } = await subscriber('network');
    const client = rawChat(user, sub, { messages: hi, model: 'openai/gpt-4o', max_tokens: 5000 });
    const res = await client.response;
    expect(res.statusCode).toBe(200);
    const text = await readUntil(res, (t) => t.includes('"content":"lo"'));
    expect(text).toContain('event: delta');
    // while streaming, the estimate (6 units) is held
    expect((await unitsUsed(container, user.id)).used).toBe(6);
    client.disconnect();
    const upstream = fleet.server('openai').lastRequest();
    await upstream.closed;
    expect(upstream.closedByClient).toBe(true);
    // settled to the prompt and the five characters streamed: 1 unit
    await expect.poll(async () => (await unitsUsed(container, user.id)).used).toBe(1);
    expect(await reservationsOf(owner, user.id)).toMatchObject([{ status: 'settled', settled_units: 1 }]);
  });

  it('before the first delta: the provider call is cancelled and the prompt the provider has is charged (decision 0419)', async () => {
    fleet.setAll({ kind: 'stall', chunks: [] });
    const { user, sub } = await subscriber('network');
    const client = rawChat(user, sub, { messages: hi, model: 'anthropic/claude-3-5-haiku-20241022' });
    await expect.poll(() => fleet.server('anthropic').requests.length).toBe(1);
    client.disconnect();
    const upstream = fleet.server('anthropic').lastRequest();
    await upstream.closed;
    expect(upstream.closedByClient).toBe(true);
    await expect.poll(async () => (await reservationsOf(owner, user.id)).map((r) => r.status)).toEqual(['settled']);
    expect(await reservationsOf(owner, user.id)).toMatchObject([{ status: 'settled', settled_units: 1 }]);
    expect((await unitsUsed(container, user.id)).used).toBe(1);
  });

  it('after the whole stream was read: it is settled once to the real usage', async () => {
    const { user, sub } = await subscriber('network');
    const client = rawChat(user, sub, { messages: hi, model: 'openai/gpt-4o', max_tokens: 5000 });
    const text = await readUntil(await client.response, (t) => t.includes('event: done'));
    expect(text).toContain('event: done');
    client.disconnect();
    await expect.poll(async () => (await reservationsOf(owner, user.id)).map((r) => r.status)).toEqual(['settled']);
    expect(await reservationsOf(owner, user.id)).toMatchObject([{ status: 'settled', settled_units: 1 }]);
    expect((await unitsUsed(container, user.id)).used).toBe(1);
  });

  it('during a non-streamed call: the provider call is cancelled and the prompt the provider has is charged (decision 0419)', async () => {
    fleet.setAll({ kind: 'stall' });
    const { user, sub } = await subscriber('network');
    const client = rawChat(user, sub, { messages: hi, model: 'google/gemini-2.5-pro' }, {});
    await expect.poll(() => fleet.server('google').requests.length).toBe(1);
    expect((await unitsUsed(container, user.id)).used).toBeGreaterThan(0);
    client.disconnect();
    const upstream = fleet.server('google').lastRequest();
    await upstream.closed;
    expect(upstream.closedByClient).toBe(true);
    await expect.poll(async () => (await reservationsOf(owner, user.id)).map((r) => r.status)).toEqual(['settled']);
    expect(await reservationsOf(owner, user.id)).toMatchObject([{ status: 'settled', settled_units: 1 }]);
    expect((await unitsUsed(container, user.id)).used).toBe(1);
    // no other provider was tried after the caller left
    expect(fleet.chatRequests()).toHaveLength(1);
  });
});
