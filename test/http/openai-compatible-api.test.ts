import type { AddressInfo } from 'node:net';
import OpenAI, { type APIError } from 'openai';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { modelsForLevel } from '../../src/domain/ai/model-catalog.js';
import { chat, hi, patientBreakers, reservationsOf, subscribe, unitsUsed } from '../support/ai/chat-fixtures.js';
import { startFakeOpenAiServer } from '../support/ai/fake-openai-server.js';
import { apiKeyOf, openAiClient } from '../support/ai/openai-client.js';
import { signUpAndIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/**
 * The OpenAI-compatible API as a user of the official `openai` SDK meets it: the service on a port,
 * the SDK's base URL at its `/v1` and an API key, the platform's OpenRouter route pointed at a
 * local provider speaking OpenAI's wire format. Its calls are `/api/ai/chat`'s (same reservation,
 * same settlement); its refusals are OpenAI's error bodies, which the SDK raises as its own classes,
 * and none of them reaches the provider.
 */
const PLATFORM_KEY = 'sk-or-v1-platform';
const MODEL = 'meta-llama/llama-3.3-70b-instruct';
const provider = await startFakeOpenAiServer({ apiKey: PLATFORM_KEY });
afterAll(() => provider.close());
const t = await startTestApp({ env: { OPENROUTER_API_KEY: PLATFORM_KEY, OPENROUTER_BASE_URL: provider.baseUrl, RATE_LIMIT_CHAT: '100000' }, override: patientBreakers });
await t.app.listen({ host: '127.0.0.1', port: 0 });
const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
const owner = t.infra.pools.owner;
beforeEach(() => provider.setBehaviour({ kind: 'reply' }));

/** A user subscribed to `plan` (none: no subscription) and an SDK client with their API key. */
async function customer(plan: string | null = 'solo') {
  const user = await signUpAndIn(t.app);
  if (plan) await subscribe(owner, user.id, plan);
  return { user, client: openAiClient(t.app, await apiKeyOf(t.app, user)) };
}

const weather = { type: 'function' as const, function: { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };
const askWeather = () => provider.setBehaviour({ kind: 'tool-calls', calls: [{ id: 'call_paris', name: 'get_weather', args: { city: 'Paris' } }] });

/** Runs `call`, expecting the SDK to raise `kind`; returns it. The provider must have seen nothing. */
async function refused<E extends APIError>(kind: new (...args: never[]) => E, call: () => Promise<unknown>): Promise<E> {
  const before = provider.requests.length;
  const err = await call().then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(kind);
  expect(provider.requests.length).toBe(before);
  return err as E;
}

/** The OpenAI error body of a raw request (for what the SDK cannot send: lone surrogates, deep JSON, a cookie). */
async function raw(path: string, init: RequestInit) {
  const res = await fetch(base + path, init);
  return { status: res.status, body: (await res.json()) as { error: { message: string; type: string; param: string | null; code: string | null } } };
}

describe('GET /v1/models', () => {
  it("when a solo subscriber lists the models, then they are the catalog models of the solo level, in OpenAI's list object", async () => {
    const { client } = await customer('solo');
    const page = await client.models.list();
    expect(page.data.map((m) => m.id)).toEqual(modelsForLevel('solo').map((m) => m.id));
    expect(page.data[0]).toEqual({ id: MODEL, object: 'model', created: 0, owned_by: 'openrouter' });
  });

  it('when the caller has no subscription, then no catalog model is listed', async () => {
    const { client } = await customer(null);
    expect((await client.models.list()).data).toEqual([]);
  });
});

describe('POST /v1/chat/completions', () => {
  it("when a subscriber asks for a completion, then the answer is OpenAI's chat.completion with the provider's text and usage, and the units are those /api/ai/chat would charge", async () => {
    const { user, client } = await customer('solo');
    const answer = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello there' }], temperature: 0.5, max_tokens: 50 });
    expect(answer).toMatchObject({
      object: 'chat.completion',
      model: MODEL,
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello, world!', refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 },
    });
    expect(provider.lastRequest().body).toMatchObject({ model: MODEL, temperature: 0.5, max_tokens: 50, messages: [{ role: 'user', content: 'Hello there' }] });

    // the same call through /api/ai/chat, by another subscriber of the same plan
    const other = await signUpAndIn(t.app);
    const subscription = await subscribe(owner, other.id, 'solo');
    expect((await chat(t.app, other, { plan: 'solo', subscription, body: { messages: hi, model: MODEL, temperature: 0.5, max_tokens: 50 } })).status).toBe(200);
    const viaV1 = await unitsUsed(t.container, user.id);
    expect(viaV1.used).toBeGreaterThan(0);
    expect(viaV1).toEqual(await unitsUsed(t.container, other.id));
    expect(await reservationsOf(owner, user.id)).toEqual([expect.objectContaining({ status: 'settled', settled_units: viaV1.used })]);
  });

  it('when the answer is streamed with include_usage, then the chunks carry the text, end with stop and a usage chunk, and the call is settled', async () => {
    const { user, client } = await customer('solo');
    const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello there' }], stream: true, stream_options: { include_usage: true } });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.id === chunks[0]!.id && c.model === MODEL)).toBe(true);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Hello, world!');
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 } });
    expect((await unitsUsed(t.container, user.id)).used).toBeGreaterThan(0);
    expect(await reservationsOf(owner, user.id)).toEqual([expect.objectContaining({ status: 'settled' })]);
  });

  it("when tools are offered and the model calls one, then tool_calls come back in OpenAI's shape, and a tool's result goes back to the provider", async () => {
    const { client } = await customer('solo');
    askWeather();
    const answer = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [weather], tool_choice: 'auto' });
    expect(answer.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_paris', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
    });
    expect(provider.lastRequest().body).toMatchObject({ tools: [weather], tool_choice: 'auto' });

    provider.setBehaviour({ kind: 'reply' });
    const message = answer.choices[0]!.message;
    await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Weather in Paris?' }, { role: 'assistant', content: null, tool_calls: message.tool_calls }, { role: 'tool', tool_call_id: 'call_paris', content: '{"sky":"clear"}' }],
      tools: [weather],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
    expect(provider.lastRequest().body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_paris', content: '{"sky":"clear"}' });
    expect(provider.lastRequest().body.tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
  });

  it("when tools are offered to a stream, then the tool call comes as OpenAI's streamed tool_call deltas, which the SDK assembles", async () => {
    const { client } = await customer('solo');
    askWeather();
    const stream = client.chat.completions.stream({ model: MODEL, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [weather], stream_options: { include_usage: true } });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]).toMatchObject({ finish_reason: 'tool_calls', message: { tool_calls: [{ id: 'call_paris', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] } });
    expect(final.usage).toMatchObject({ total_tokens: 16 });
  });

  it('when the provider fails, then the SDK gets 502 provider_error at once (not retried) and nothing is charged', async () => {
    const { user, client } = await customer('solo');
    provider.setBehaviour({ kind: 'error', status: 500 });
    const before = provider.requests.length;
    const err = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.InternalServerError);
    expect(err).toMatchObject({ status: 502, code: 'provider_error', type: 'server_error' });
    expect(provider.requests.length).toBe(before + 1);
    expect(await unitsUsed(t.container, user.id)).toEqual({ used: 0, credits: 0 });
    expect(await reservationsOf(owner, user.id)).toEqual([expect.objectContaining({ status: 'released' })]);
  });
});

describe('refusals, as the SDK raises them, none reaching the provider', () => {
  it('when the API key is wrong, then AuthenticationError with invalid_api_key; a session cookie alone is not a credential here', async () => {
    const err = await refused(OpenAI.AuthenticationError, () => openAiClient(t.app, 'sk_not_a_key').models.list());
    expect(err).toMatchObject({ status: 401, code: 'invalid_api_key' });
    const { user } = await customer('solo');
    const res = await raw('/v1/chat/completions', { method: 'POST', headers: { ...user.headers, 'content-type': 'application/json' }, body: JSON.stringify({ model: MODEL, messages: hi }) });
    expect(res).toMatchObject({ status: 401, body: { error: { code: 'invalid_api_key' } } });
  });

  it('when the model is above the plan, then PermissionDeniedError model_not_allowed naming the model', async () => {
    const { client } = await customer('label');
    const err = await refused(OpenAI.PermissionDeniedError, () => client.chat.completions.create({ model: 'google/gemini-2.0-flash', messages: [{ role: 'user', content: 'Hi' }] }));
    expect(err).toMatchObject({ status: 403, code: 'model_not_allowed', param: 'model' });
  });

  it('when the model is unknown, then NotFoundError model_not_found', async () => {
    const { client } = await customer('solo');
    const err = await refused(OpenAI.NotFoundError, () => client.chat.completions.create({ model: 'nobody/nothing', messages: [{ role: 'user', content: 'Hi' }] }));
    expect(err).toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
  });

  it('when the caller has no subscription, then RateLimitError insufficient_quota, not retried', async () => {
    const { client } = await customer(null);
    const err = await refused(OpenAI.RateLimitError, () => client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }));
    expect(err).toMatchObject({ status: 429, code: 'insufficient_quota', type: 'insufficient_quota' });
    expect(err.headers.get('x-should-retry')).toBe('false');
  });

  it('when a field is out of range, unknown or malformed, then BadRequestError naming it as param', async () => {
    const { client } = await customer('solo');
    const user = [{ role: 'user' as const, content: 'Hi' }];
    const cases: [object, string][] = [
      [{ temperature: 3 }, 'temperature'],
      [{ top_p: -1 }, 'top_p'],
      [{ max_tokens: 0 }, 'max_tokens'],
      [{ n: 2 }, 'n'],
      [{ stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
      [{ logit_bias: { 1: 2 } }, 'logit_bias'],
      [{ response_format: { type: 'json_schema', json_schema: { name: 'x' } } }, 'response_format.type'],
      [{ tool_choice: 'auto' }, 'tool_choice'],
      [{ tools: [{ type: 'function', function: { name: 'bad name!' } }] }, 'tools[0].function.name'],
      [{ messages: [] }, 'messages'],
      [{ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x.test/a.png' } }] }] }, 'messages[0].content'],
      [{ messages: [{ role: 'tool', tool_call_id: 'call_none', content: 'x' }] }, 'messages[0].tool_call_id'],
    ];
    for (const [fields, param] of cases) {
      const err = await refused(OpenAI.BadRequestError, () => client.chat.completions.create({ model: MODEL, messages: user, ...fields } as never));
      expect({ param: err.param, code: err.code, type: err.type }).toEqual({ param, code: 'invalid_request_error', type: 'invalid_request_error' });
    }
  });

  it('when tools are offered to a model that cannot call them, then BadRequestError with param tools naming the model', async () => {
    const { client } = await customer('collective');
    const err = await refused(OpenAI.BadRequestError, () => client.chat.completions.create({ model: 'deepseek/deepseek-r1', messages: [{ role: 'user', content: 'Hi' }], tools: [weather] }));
    expect(err).toMatchObject({ status: 400, param: 'tools' });
    expect(err.message).toContain('deepseek/deepseek-r1');
  });

  it("when the body holds a lone surrogate or nests too deep, then 400 in OpenAI's shape", async () => {
    const { user } = await customer('solo');
    const key = await apiKeyOf(t.app, user);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const before = provider.requests.length;
    const surrogate = await raw('/v1/chat/completions', { method: 'POST', headers, body: `{"model":"${MODEL}","messages":[{"role":"user","content":"a\\ud800b"}]}` });
    expect(surrogate).toMatchObject({ status: 400, body: { error: { type: 'invalid_request_error', param: 'messages[0].content' } } });
    const deep = await raw('/v1/chat/completions', { method: 'POST', headers, body: `{"model":"${MODEL}","messages":${'['.repeat(100)}${']'.repeat(100)}}` });
    expect(deep).toMatchObject({ status: 400, body: { error: { type: 'invalid_request_error', code: 'invalid_request_error' } } });
    const notJson = await raw('/v1/chat/completions', { method: 'POST', headers, body: '{"model":' });
    expect(notJson).toMatchObject({ status: 400, body: { error: { type: 'invalid_request_error' } } });
    expect(provider.requests.length).toBe(before);
  });
});
