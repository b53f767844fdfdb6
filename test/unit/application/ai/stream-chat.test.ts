import { ManualClock } from '../../../fakes/manual-clock.js';
import { describe, expect, it } from 'vitest';
import type { ChatGrant } from '../../../../src/application/ai/authorize-chat.use-case.js';
import { ChatMetering } from '../../../../src/application/ai/chat-metering.js';
import { ChatRouter } from '../../../../src/application/ai/chat-router.js';
import { DEFAULT_BREAKER_SETTINGS } from '../../../../src/application/ports/circuit-breaker-settings.port.js';
import { CircuitBreakers } from '../../../../src/application/ai/circuit-breaker.js';
import { leaseSettingsFor, UsageReservations } from '../../../../src/application/billing/usage-reservations.js';
import { StreamChat, type ChatStreamOutput } from '../../../../src/application/ai/stream-chat.use-case.js';
import { CompleteChat } from '../../../../src/application/ai/complete-chat.use-case.js';
import type { UsageMeter, UsageReservation } from '../../../../src/application/ports/usage-meter.port.js';
import type { ChatAccess } from '../../../../src/application/ports/unit-of-work.port.js';
import type { UserId } from '../../../../src/domain/shared/ids.js';
import { FakeAiProvider, httpFailure, usage } from '../../../support/ai/fake-ai-provider.js';

/** Records what the use case asked of the meter. */
class RecordingMeter implements UsageMeter {
  readonly log: string[] = [];
  async reserve(payer: UserId, units: number): Promise<UsageReservation> {
    this.log.push(`reserve ${units}`);
    return { id: 'r1', payer, units, day: '2026-11-22' };
  }
  /** What reserveWithChatAccess reads: set by a test. */
  chatAccess: ChatAccess = { subscriptions: [], byokProviders: [] };
  /** What reserveWithChatAccess says is left: none by default, so no call starts its provider before its reservation. */
  available = 0;
  async reserveWithChatAccess(payer: UserId, units: number) {
    this.log.push(`reserve+access ${units}`);
    return { taken: { id: 'r1', payer, units, day: '2026-11-22' }, chatAccess: this.chatAccess, available: this.available };
  }
  async reserveWithRuntimeCaller(payer: UserId, units: number) {
    this.log.push(`reserve+caller ${units}`);
    return { taken: { id: 'r1', payer, units, day: '2026-11-22' }, caller: null, available: this.available };
  }
  /** When set, a settlement is handed to the database only once this resolves. */
  handOverAfter: Promise<void> | null = null;
  async settle(_r: Pick<UsageReservation, 'id'>, units: number, handedOver?: () => void) {
    this.log.push(`settle ${units}`);
    await this.handOverAfter;
    handedOver?.();
    return true;
  }
  async release() {
    this.log.push('release');
    return true;
  }
  async releaseStale() {
    return false;
  }
  async renew() {
    return 0;
  }
  async openBefore() {
    return [];
  }
  async usage() {
    return { dailyUnits: 0, used: 0, remaining: 0, credits: 0 };
  }
}

const grant = { actor: {} as never, level: 'label', payer: 'u1' as UserId, byokProviders: [] } satisfies ChatGrant;
const input = { messages: [{ role: 'user' as const, content: 'x'.repeat(400) }], model: 'openai/gpt-4o-mini', maxTokens: 2000 };

function setup() {
  const openai = new FakeAiProvider('openai');
  const meter = new RecordingMeter();
  const log = { debug() {}, info() {}, warn() {}, error() {} };
  const settings = { defaultModelId: 'meta-llama/llama-3.3-70b-instruct' as const, chatRateLimitPerMinute: 60 };
  const metering = new ChatMetering(new UsageReservations(meter, leaseSettingsFor(600_000), log), { keysFor: async () => ({}) }, settings);
  const router = new ChatRouter([openai], new CircuitBreakers(new ManualClock(0), DEFAULT_BREAKER_SETTINGS));
  const useCase = new StreamChat(router, metering, log);
  return { openai, meter, metering, useCase, complete: new CompleteChat(router, metering) };
}

/** Lets every pending callback, timer-free, run: what is still pending afterwards waits for something else. */
async function settleDown(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
}

describe('StreamChat', () => {
  it('reserves prompt plus max_tokens, then settles once to the provider\'s counts', async () => {
    const { openai, meter, metering, useCase } = setup();
    openai.then({ reply: '', chunks: ['a', 'b'], usage: usage(1500, 600) });
    const stream = await useCase.execute(grant, input);
    const out: ChatStreamOutput[] = [];
    for await (const e of stream.events) out.push(e);
    await metering.drain();
    expect(out.map((e) => e.type)).toEqual(['delta', 'delta', 'done']);
    expect(meter.log).toEqual(['reserve 3', 'settle 3']); // (100 + 4 + 2000) tokens reserved, 2100 used
  });

  it('a consumer that stops reading closes the provider stream and settles to what was sent', async () => {
    const { openai, meter, metering, useCase } = setup();
    openai.then({ reply: '', chunks: ['x'.repeat(40), 'more', 'and more'] });
    const stream = await useCase.execute(grant, input);
    for await (const e of stream.events) {
      expect(e.type).toBe('delta');
      break;
    }
    await metering.drain();
    expect(openai.streamsClosedEarly).toBe(1);
    expect(meter.log).toEqual(['reserve 3', 'settle 1']);
  });

  it('a provider failure after the first delta ends with an error event and releases once', async () => {
    const { openai, meter, metering, useCase } = setup();
    openai.then({ chunks: ['a'], thenFail: httpFailure('openai', 500) });
    const stream = await useCase.execute(grant, input);
    const out: ChatStreamOutput[] = [];
    for await (const e of stream.events) out.push(e);
    await metering.drain();
    expect(out.map((e) => e.type)).toEqual(['delta', 'error']);
    expect(out[1]).toMatchObject({ code: 'PROVIDER_ERROR' });
    expect(meter.log).toEqual(['reserve 3', 'release']);
  });

  it('a failure before the first event rejects and releases', async () => {
    const { openai, meter, metering, useCase } = setup();
    openai.always({ fail: httpFailure('openai', 500) });
    await expect(useCase.execute(grant, { ...input, model: undefined })).rejects.toMatchObject({ code: 'PROVIDER_ERROR' });
    await metering.drain();
    expect(meter.log).toEqual(['reserve 3', 'release']);
  });

  it('a caller that aborts before the first event gets CLIENT_CLOSED_REQUEST and nothing is charged', async () => {
    const { openai, meter, metering, useCase } = setup();
    openai.then({ hang: true });
    const abort = new AbortController();
    const pending = useCase.execute(grant, input, abort.signal);
    abort.abort();
    await expect(pending).rejects.toMatchObject({ code: 'CLIENT_CLOSED_REQUEST' });
    await metering.drain();
    expect(meter.log).toEqual(['reserve 3', 'release']);
  });

  it('a caller that aborts after the stream is committed and never reads it releases once and closes the provider stream', async () => {
    const { openai, meter, metering, useCase } = setup();
    openai.then({ reply: '', chunks: ['a', 'b'] });
    const abort = new AbortController();
    const stream = await useCase.execute(grant, input, abort.signal);
    abort.abort();
    await metering.drain();
    await new Promise((r) => setImmediate(r));
    expect(meter.log).toEqual(['reserve 3', 'release']);
    expect(openai.streamsClosedEarly).toBe(1);
    // reading or closing it afterwards books nothing more
    const out: ChatStreamOutput[] = [];
    for await (const e of stream.events) out.push(e);
    await stream.events.return(undefined);
    await metering.drain();
    expect(out).toEqual([]);
    expect(meter.log).toEqual(['reserve 3', 'release']);
  });

  it('a caller that aborts mid-stream and is then closed by the route settles once, to what was sent', async () => {
    const { openai, meter, metering, useCase } = setup();
    openai.then({ reply: '', chunks: ['x'.repeat(40), 'more'] });
    const abort = new AbortController();
    const stream = await useCase.execute(grant, input, abort.signal);
    expect((await stream.events.next()).value).toEqual({ type: 'delta', text: 'x'.repeat(40) });
    abort.abort();
    await stream.events.return(undefined);
    await metering.drain();
    expect(meter.log).toEqual(['reserve 3', 'settle 1']);
  });

  it('a caller whose signal aborted while the first event was on its way gets CLIENT_CLOSED_REQUEST and is released', async () => {
    const { openai, meter, metering, useCase } = setup();
    const abort = new AbortController();
    // a provider whose first event was already in hand when the caller left
    openai.stream = async function* () {
      abort.abort();
      yield { type: 'delta' as const, text: 'a' };
    };
    await expect(useCase.execute(grant, input, abort.signal)).rejects.toMatchObject({ code: 'CLIENT_CLOSED_REQUEST' });
    await metering.drain();
    expect(meter.log).toEqual(['reserve 3', 'release']);
  });
});

describe('the settlement leaves before the answer', () => {
  it('a stream yields done only once its settlement has been handed to the database', async () => {
    const { openai, meter, metering, useCase } = setup();
    let handOver!: () => void;
    meter.handOverAfter = new Promise<void>((resolve) => (handOver = resolve));
    openai.then({ reply: '', chunks: ['a'], usage: usage(1500, 600) });
    const stream = await useCase.execute(grant, input);
    expect((await stream.events.next()).value).toEqual({ type: 'delta', text: 'a' });
    let done: IteratorResult<ChatStreamOutput> | undefined;
    void stream.events.next().then((r) => (done = r));
    await settleDown();
    expect(meter.log).toEqual(['reserve 3', 'settle 3']);
    expect(done).toBeUndefined();
    handOver();
    await expect.poll(() => done?.value?.type).toBe('done');
    await metering.drain();
  });

  it('a complete call answers only once its settlement has been handed to the database', async () => {
    const { openai, meter, metering, complete } = setup();
    let handOver!: () => void;
    meter.handOverAfter = new Promise<void>((resolve) => (handOver = resolve));
    openai.then({ reply: 'hello', usage: usage(1500, 600) });
    let answer: { content: string } | undefined;
    void complete.execute(grant, input).then((a) => (answer = a));
    await settleDown();
    expect(meter.log).toEqual(['reserve 3', 'settle 3']);
    expect(answer).toBeUndefined();
    handOver();
    await expect.poll(() => answer?.content).toBe('hello');
    await metering.drain();
  });
});

describe('a grant still being confirmed', () => {
  const pending = () => {
    let confirm!: (g: ChatGrant) => void;
    let refuse!: (e: Error) => void;
    const confirmation = new Promise<ChatGrant>((resolve, reject) => ((confirm = resolve), (refuse = reject)));
    return { grant: { payer: grant.payer, level: grant.level, confirmation }, confirm, refuse };
  };

  it('reserves during the check only for a payer whose last call here was metered', async () => {
    const { openai, meter, metering, complete } = setup();
    openai.always({ reply: 'hi', usage: usage(10, 2) });
    const first = pending();
    const answering = complete.execute(first.grant, input);
    await settleDown();
    expect(meter.log).toEqual([]); // a first call waits for its check
    first.confirm(grant);
    await answering;
    const second = pending();
    const next = complete.execute(second.grant, input);
    await settleDown();
    expect(meter.log).toEqual(['reserve 3', 'settle 1', 'reserve 3']); // taken while the check runs
    second.confirm(grant);
    await next;
    await metering.drain();
    expect(meter.log).toEqual(['reserve 3', 'settle 1', 'reserve 3', 'settle 1']);
  });

  it('gives back what it reserved when the check refuses, a BYOK key applies or the level differs', async () => {
    const { openai, meter, metering, complete } = setup();
    openai.always({ reply: 'hi', usage: usage(10, 2) });
    await complete.execute(grant, input); // metered: the next calls reserve during their checks
    const refused = pending();
    const refusing = complete.execute(refused.grant, input);
    await settleDown();
    refused.refuse(new Error('402'));
    await expect(refusing).rejects.toThrow('402');
    await metering.drain();
    expect(meter.log.slice(-2)).toEqual(['reserve 3', 'release']);

    await complete.execute(grant, input); // metered again
    const other = pending();
    const elsewhere = complete.execute(other.grant, input);
    await settleDown();
    other.confirm({ ...grant, level: 'network' });
    await elsewhere;
    await metering.drain();
    // the reservation for the guessed level given back, the call opened at the confirmed one
    expect(meter.log.slice(-4)).toEqual(['reserve 3', 'release', 'reserve 3', 'settle 1']);
  });
});

