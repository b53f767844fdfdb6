import { ManualClock } from '../../fakes/manual-clock.js';
import type { AddressInfo } from 'node:net';
import type { DependencyContainer } from 'tsyringe';
import { afterAll, describe, expect, it } from 'vitest';
import { CLOCK } from '../../../src/application/ports/clock.port.js';
import { CIRCUIT_BREAKER_SETTINGS, DEFAULT_BREAKER_SETTINGS } from '../../../src/application/ports/circuit-breaker-settings.port.js';
import { CircuitBreakers } from '../../../src/application/ai/circuit-breaker.js';
import { StreamChat } from '../../../src/application/ai/stream-chat.use-case.js';
import { startFakeFleet } from '../../support/ai/fake-ai-fleet.js';
import { chat, hi, rawPost, reservationsOf, subscribe, unitsUsed } from '../../support/ai/chat-fixtures.js';
import { signUpAndIn, type SignedIn } from '../../support/http-client.js';
import { startTestApp } from '../../support/test-app.js';

/*
 * A client that leaves after the provider's first event but before the route reads the stream:
 * StreamChat has committed (reservation taken, the breaker's slot held), and nothing will ever
 * iterate the stream's generators. A wrapper around the real StreamChat holds the committed stream
 * until the client has gone, which is the window a real disconnect can fall into.
 */
const clock = new ManualClock(Date.now());
const COOLDOWN_MS = 30_000;
let holdNext = false;
let committed: () => void = () => {};

function holdCommittedStreams(c: DependencyContainer) {
  c.register(CLOCK, { useValue: clock });
  c.register(CIRCUIT_BREAKER_SETTINGS, { useValue: { ...DEFAULT_BREAKER_SETTINGS, consecutiveFailures: 1, cooldownMs: COOLDOWN_MS } });
  const real = c.createChildContainer();
  real.registerSingleton(StreamChat);
  c.register(StreamChat, {
    useValue: {
      async execute(...args: Parameters<StreamChat['execute']>) {
        const stream = await real.resolve(StreamChat).execute(...args);
        if (holdNext) {
          holdNext = false;
          committed();
          const signal = args[2]!;
          if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        }
        return stream;
      },
    } as StreamChat,
  });
}

const fleet = await startFakeFleet();
afterAll(() => fleet.close());
const { app, container, infra } = await startTestApp({ env: { ...fleet.env, RATE_LIMIT_CHAT: '10000' }, override: holdCommittedStreams });
const owner = infra.pools.owner;
await app.listen({ host: '127.0.0.1', port: 0 });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

function rawStreamedChat(user: SignedIn, sub: string, body: unknown) {
  return rawPost(`${base}/api/ai/chat`, { ...user.headers, accept: 'text/event-stream', 'x-user-plan': 'network', 'x-payment-subscription-id': sub }, body);
}


describe('POST /api/ai/chat streamed: a client that leaves before the first frame', () => {
  it('when the stream was committed as a half-open trial, then the reservation ends settled to the prompt and the provider serves the next call', async () => {
    const user = await signUpAndIn(app);
    const sub = await subscribe(owner, user.id, 'network');
    const breaker = container.resolve(CircuitBreakers).for('openai');

    // one failure opens openai's circuit (the call itself falls back and is charged)
    fleet.setAll({ kind: 'reply' });
    fleet.server('openai').setBehaviour({ kind: 'error', status: 500 });
    const first = await chat(app, user, { plan: 'network', subscription: sub, body: { messages: hi, model: 'openai/gpt-4o' } });
    expect(first.status).toBe(200);
    expect(first.body.provider).not.toBe('openai');
    expect(breaker.state).toBe('open');
    clock.advance(COOLDOWN_MS);
    expect(breaker.state).toBe('half-open');

    // the trial: openai sends its first delta, then the client leaves before reading anything
    fleet.server('openai').setBehaviour({ kind: 'stall', chunks: ['Hel'] });
    holdNext = true;
    const isCommitted = new Promise<void>((resolve) => (committed = resolve));
    const client = rawStreamedChat(user, sub, { messages: hi, model: 'openai/gpt-4o', max_tokens: 5000 });
    await isCommitted;
    client.disconnect();
    const upstream = fleet.server('openai').lastRequest();
    await upstream.closed;
    expect(upstream.closedByClient).toBe(true);
    // the provider had the prompt: it is charged (decision 0419), the first call's unit and this one's
    await expect.poll(async () => (await reservationsOf(owner, user.id)).map((r) => r.status), { timeout: 5_000 }).toEqual(['settled', 'settled']);
    expect((await unitsUsed(container, user.id)).used).toBe(2);

    // the trial was given back: the next call goes to openai and closes the circuit
    fleet.server('openai').setBehaviour({ kind: 'reply' });
    const next = await chat(app, user, { plan: 'network', subscription: sub, body: { messages: hi, model: 'openai/gpt-4o' } });
    expect(next.status).toBe(200);
    expect(next.body.provider).toBe('openai');
    expect(breaker.state).toBe('closed');
  });
});
