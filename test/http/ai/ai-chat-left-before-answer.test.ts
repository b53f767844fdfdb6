import type { AddressInfo } from 'node:net';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { estimatePromptTokens } from '../../../src/domain/ai/usage-estimate.js';
import { unitsForTokens } from '../../../src/domain/billing/units.js';
import type { AiProviderName } from '../../../src/domain/ai/ai-model.js';
import { startFakeFleet } from '../../support/ai/fake-ai-fleet.js';
import { patientBreakers, rawPost, reservationsOf, subscribe, unitsUsed } from '../../support/ai/chat-fixtures.js';
import { gatewayTokenFor, provisionedUser } from '../../support/agents/instances.js';
import { bearer, call, signUpAndIn } from '../../support/http-client.js';
import { startTestApp } from '../../support/test-app.js';

/*
 * Decision 0419: a subscriber sends a large prompt and closes the socket before
 * the answer. The provider has the prompt (and bills it), so the call is settled to the prompt's
 * units: the vendor's count when it gave one, else the metering's estimate. A caller who leaves
 * before the provider request went out is charged nothing. Each path a metered chat call takes:
 * POST /api/ai/chat, the gateway's generate-text for a subscriber, an agent runtime's
 * POST /api/runtime/chat; JSON and streamed. The providers are local servers speaking the
 * vendors' wire formats that hold their answer until the client goes; the client's socket is
 * really destroyed.
 */
const fleet = await startFakeFleet();
afterAll(() => fleet.close());
const { app, container, infra } = await startTestApp({
  env: { ...fleet.env, RATE_LIMIT_CHAT: '10000', RATE_LIMIT_GATEWAY: '10000', RATE_LIMIT_AGENTS: '10000' },
  override: patientBreakers,
});
const owner = infra.pools.owner;
await app.listen({ host: '127.0.0.1', port: 0 });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

beforeEach(() => {
  fleet.setAll({ kind: 'stall', chunks: [] });
  for (const s of Object.values(fleet.servers)) s.requests.length = 0;
});

/** About 10,000 tokens of prompt: 11 units by the estimate, 12 reserved with the default 1,024 of answer. */
const bigPrompt = 'Summarise this. '.repeat(2_500);
const bigMessages = [{ role: 'user', content: bigPrompt }];
const PROMPT_UNITS = unitsForTokens(estimatePromptTokens(bigMessages));

const JSON_CALL = { accept: 'application/json' };
const STREAMED = { accept: 'text/event-stream' };

/** Waits until `provider` holds the call's request, then closes the client's socket and waits for the provider's to close. */
async function leaveOnceProviderHasIt(provider: AiProviderName, client: { disconnect(): void }) {
  const server = fleet.server(provider);
  await expect.poll(() => server.requests.length, { timeout: 10_000 }).toBe(1);
  client.disconnect();
  const upstream = server.lastRequest();
  await upstream.closed;
  expect(upstream.closedByClient).toBe(true);
}

async function chatSubscriber() {
  const user = await signUpAndIn(app);
  const sub = await subscribe(owner, user.id, 'network');
  const headers = { ...user.headers, 'x-user-plan': 'network', 'x-payment-subscription-id': sub };
  return { user, chat: (accept: Record<string, string>, body: unknown) => rawPost(`${base}/api/ai/chat`, { ...headers, ...accept }, body) };
}

/** The payer's one reservation, once closed: settled to `units`. */
async function expectSettledTo(userId: string, units: number) {
  await expect.poll(async () => (await reservationsOf(owner, userId)).map((r) => r.status), { timeout: 10_000 }).toEqual(['settled']);
  expect(await reservationsOf(owner, userId)).toMatchObject([{ status: 'settled', settled_units: units }]);
  expect((await unitsUsed(container, userId)).used).toBe(units);
}

describe.each([
  ['JSON', JSON_CALL],
  ['streamed', STREAMED],
] as const)('POST /api/ai/chat (%s): a caller who leaves before the answer', (_, accept) => {
  it("when the provider already has a large prompt, then the call is settled to the prompt's estimated units", async () => {
    const { user, chat } = await chatSubscriber();
    const client = chat(accept, { messages: bigMessages, model: 'openai/gpt-4o' });
    await leaveOnceProviderHasIt('openai', client);
    await expectSettledTo(user.id, PROMPT_UNITS);
  });

  it('when the caller leaves while its units are being reserved, before any provider request, then nothing is charged', async () => {
    const { user, chat } = await chatSubscriber();
    // the reservation statement waits on the payer's row, held here
    const holder = await owner.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from users where id = $1 for update', [user.id]);
      const client = chat(accept, { messages: bigMessages, model: 'openai/gpt-4o' });
      await expect.poll(async () => (await owner.query(`select count(*)::int n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)).rows[0].n, { timeout: 10_000 }).toBe(1);
      client.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 300)); // the service sees the socket close
    } finally {
      await holder.query('rollback');
      holder.release();
    }
    await expect.poll(async () => (await reservationsOf(owner, user.id)).map((r) => r.status), { timeout: 10_000 }).toEqual(['released']);
    expect((await unitsUsed(container, user.id)).used).toBe(0);
    expect(fleet.chatRequests()).toEqual([]);
  });
});

describe('POST /api/ai/chat streamed: the vendor counted the prompt before it answered', () => {
  it("when Anthropic's message_start reported the prompt and the caller leaves before any text, then the call is settled to the vendor's count", async () => {
    fleet.setAll({ kind: 'stall', chunks: [], usage: { prompt: 7_400, completion: 0 } });
    const { user, chat } = await chatSubscriber();
    const client = chat(STREAMED, { messages: bigMessages, model: 'anthropic/claude-3-5-haiku-20241022' });
    await leaveOnceProviderHasIt('anthropic', client);
    await expectSettledTo(user.id, 8);
  });

  it("when Google's chunks reported the prompt and the caller leaves mid-stream, then the call is settled to the vendor's count and the text sent", async () => {
    fleet.setAll({ kind: 'stall', chunks: ['Hel'], usage: { prompt: 2_999, completion: 0 } });
    const { user, chat } = await chatSubscriber();
    const client = chat(STREAMED, { messages: bigMessages, model: 'google/gemini-2.0-flash' });
    const res = await client.response;
    for await (const chunk of res) if (String(chunk).includes('"content":"Hel"')) break;
    await leaveOnceProviderHasIt('google', client);
    // 2,999 tokens of prompt and 1 of the three characters sent
    await expectSettledTo(user.id, 3);
  });
});

describe.each([
  ['JSON', JSON_CALL],
  ['streamed', STREAMED],
] as const)('POST /api/v1/gateway generate-text paid by a subscription (%s): a caller who leaves before the answer', (_, accept) => {
  it("when the provider already has a large prompt, then the subscriber's call is settled to the prompt's units", async () => {
    const user = await signUpAndIn(app);
    await subscribe(owner, user.id, 'label');
    const key = (await call(app, { method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: 'gw' } })).body.key as string;
    const client = rawPost(`${base}/api/v1/gateway`, { ...bearer(key), ...accept }, { prompt: bigPrompt });
    await expect.poll(() => fleet.chatRequests().length, { timeout: 10_000 }).toBe(1);
    await leaveOnceProviderHasIt(fleet.chatRequests()[0]!.provider, client);
    await expectSettledTo(user.id, PROMPT_UNITS);
  });
});

describe.each([
  ['JSON', JSON_CALL],
  ['streamed', STREAMED],
] as const)("POST /api/runtime/chat, an agent runtime's call (%s): a runtime that leaves before the answer", (_, accept) => {
  it("when the provider already has a large prompt, then the owner's call is settled to the prompt's units", async () => {
    const { user, agent } = await provisionedUser(app, owner, 'label');
    const token = await gatewayTokenFor(owner, user.id);
    const client = rawPost(`${base}/api/runtime/chat`, { ...bearer(token), ...accept }, { agentId: agent.id, model: 'openai/gpt-4o-mini', messages: bigMessages });
    await leaveOnceProviderHasIt('openai', client);
    await expectSettledTo(user.id, PROMPT_UNITS);
  });
});
