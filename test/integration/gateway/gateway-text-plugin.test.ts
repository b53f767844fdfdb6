import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { generateTextBody } from '../../../src/application/gateway/plugin-bodies.js';
import { ChatMetering } from '../../../src/application/ai/chat-metering.js';
import { patientBreakers, reservationsOf, unitsUsed } from '../../support/ai/chat-fixtures.js';
import { startFakeOpenAiServer } from '../../support/ai/fake-openai-server.js';
import { callWith, collect, meteredPayer, pluginOf, prepaidPayer } from '../../support/gateway-payers.js';
import { signUpAndIn } from '../../support/http-client.js';
import { startTestApp } from '../../support/test-app.js';

/**
 * The generate-text plugin in-process, on a real database and a local OpenAI-format provider
 * (standing in for OpenRouter): the processor method's payer is metered (reserve → settle, or
 * release), a prepaid one (MPP, one-off checkout) is not, and both stay within their level.
 */
const PLATFORM_KEY = 'sk-or-gateway-platform';
const provider = await startFakeOpenAiServer({ apiKey: PLATFORM_KEY });
afterAll(() => provider.close());
const { app, container, infra } = await startTestApp({
  env: { OPENROUTER_API_KEY: PLATFORM_KEY, OPENROUTER_BASE_URL: provider.baseUrl },
  override: patientBreakers,
});
const owner = infra.pools.owner;
const plugin = pluginOf(container, 'generate-text');
const input = (body: object) => generateTextBody.parse(body);

beforeEach(() => {
  provider.setBehaviour({ kind: 'reply' });
  provider.requests.length = 0;
});

describe('generate-text plugin', () => {
  it('when a subscriber sends a prompt, then the message is the generated text and one unit is reserved then settled', async () => {
    const user = await signUpAndIn(app);
    const payer = await meteredPayer(container, owner, user);
    const result = await plugin.run(callWith(payer, input({ prompt: 'Say hello' })));
    expect(result).toEqual({ message: 'Hello, world!' });
    expect(provider.lastRequest().body.messages).toEqual([{ role: 'user', content: 'Say hello' }]);
    expect(provider.lastRequest().headers.authorization).toBe(`Bearer ${PLATFORM_KEY}`);
    expect((await unitsUsed(container, user.id)).used).toBe(1);
    expect(await reservationsOf(owner, user.id)).toEqual([{ units: expect.any(Number), status: 'settled', settled_units: 1 }]);
  });

  it('when messages, model, max_tokens and temperature are given, then the provider receives them', async () => {
    const user = await signUpAndIn(app);
    const payer = await meteredPayer(container, owner, user);
    const messages = [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }];
    await plugin.run(callWith(payer, input({ messages, model: 'meta-llama/llama-3.3-70b-instruct', max_tokens: 50, temperature: 0.3 })));
    expect(provider.lastRequest().body).toMatchObject({ model: 'meta-llama/llama-3.3-70b-instruct', messages, max_tokens: 50, temperature: 0.3 });
  });

  it('when a subscriber streams, then the deltas come in order, then one done with the whole text, and the call is settled', async () => {
    const user = await signUpAndIn(app);
    const payer = await meteredPayer(container, owner, user);
    const events = await collect(plugin.stream!(callWith(payer, input({ prompt: 'Say hello' }))));
    expect(events).toEqual([
      { type: 'delta', content: 'Hello' },
      { type: 'delta', content: ', ' },
      { type: 'delta', content: 'world' },
      { type: 'delta', content: '!' },
      { type: 'done', result: { message: 'Hello, world!' } },
    ]);
    expect((await unitsUsed(container, user.id)).used).toBe(1);
  });

  it('when the payer paid in advance, then the call runs on the platform key and nothing is reserved or metered', async () => {
    const user = await signUpAndIn(app);
    const allReservations = async () => (await owner.query(`select count(*)::int as n from usage_reservations`)).rows[0].n;
    const before = await allReservations();
    const anonymous = await plugin.run(callWith(prepaidPayer('label'), input({ prompt: 'Hi' })));
    expect(anonymous).toEqual({ message: 'Hello, world!' });
    const signedIn = await collect(plugin.stream!(callWith(prepaidPayer('label', user.id), input({ prompt: 'Hi' }))));
    expect(signedIn.at(-1)).toEqual({ type: 'done', result: { message: 'Hello, world!' } });
    expect(provider.requests).toHaveLength(2);
    expect((await unitsUsed(container, user.id)).used).toBe(0);
    expect(await reservationsOf(owner, user.id)).toEqual([]);
    await container.resolve(ChatMetering).drain();
    expect(await allReservations()).toBe(before);
  });

  it('when a prepaid payer asks for a model above its level, then MODEL_RESTRICTED and no provider call', async () => {
    await expect(plugin.run(callWith(prepaidPayer('label'), input({ prompt: 'Hi', model: 'openai/gpt-4o' })))).rejects.toMatchObject({ code: 'MODEL_RESTRICTED' });
    expect(provider.requests).toEqual([]);
  });

  it("when the subscriber's units and credits are spent, then USAGE_EXHAUSTED (429) and no provider call", async () => {
    const user = await signUpAndIn(app);
    const payer = await meteredPayer(container, owner, user);
    await owner.query(`insert into daily_usage (user_id, day, used_units) values ($1, (now() at time zone 'utc')::date, 600)`, [user.id]);
    await expect(plugin.run(callWith(payer, input({ prompt: 'Hi' })))).rejects.toMatchObject({ code: 'USAGE_EXHAUSTED' });
    await expect(plugin.stream!(callWith(payer, input({ prompt: 'Hi' })))[Symbol.asyncIterator]().next()).rejects.toMatchObject({ code: 'USAGE_EXHAUSTED' });
    expect(provider.requests).toEqual([]);
  });

  it('when the provider fails, then PROVIDER_ERROR (the route answers 502) and the reservation is released', async () => {
    provider.setBehaviour({ kind: 'error', status: 500 });
    const user = await signUpAndIn(app);
    const payer = await meteredPayer(container, owner, user);
    await expect(plugin.run(callWith(payer, input({ prompt: 'Hi', model: 'meta-llama/llama-3.3-70b-instruct' })))).rejects.toMatchObject({ code: 'PROVIDER_ERROR' });
    await expect(collect(plugin.stream!(callWith(payer, input({ prompt: 'Hi', model: 'meta-llama/llama-3.3-70b-instruct' }))))).rejects.toMatchObject({ code: 'PROVIDER_ERROR' });
    await container.resolve(ChatMetering).drain();
    expect((await unitsUsed(container, user.id)).used).toBe(0);
    expect((await reservationsOf(owner, user.id)).map((r) => r.status)).toEqual(['released', 'released']);
  });

  it('when the provider fails mid-stream, then the stream throws PROVIDER_ERROR after the deltas sent and the reservation is released', async () => {
    provider.setBehaviour({ kind: 'stream-error', chunks: ['Hel'] });
    const user = await signUpAndIn(app);
    const payer = await meteredPayer(container, owner, user);
    const seen: unknown[] = [];
    await expect((async () => {
      for await (const e of plugin.stream!(callWith(payer, input({ prompt: 'Hi', model: 'meta-llama/llama-3.3-70b-instruct' })))) seen.push(e);
    })()).rejects.toMatchObject({ code: 'PROVIDER_ERROR' });
    expect(seen).toEqual([{ type: 'delta', content: 'Hel' }]);
    expect((await unitsUsed(container, user.id)).used).toBe(0);
    expect((await reservationsOf(owner, user.id)).map((r) => r.status)).toEqual(['released']);
  });
});
