import { afterEach, beforeEach, expect, it } from 'vitest';
import { ProviderError, ProviderUnavailableError } from '../../../src/application/ai/ai-provider.errors.js';
import type { AiProvider, ChatRequest, ChatStreamEvent } from '../../../src/application/ports/ai-provider.port.js';
import { DEFAULT_CHUNKS, type FakeAiServer, type FakeAiServerOptions } from './fake-ai-server.js';

export const PLATFORM_KEY = 'platform-key-0123456789abcdefghij';
export const USER_KEY = 'user-byok-key-9876543210zyxwvuts';

export interface ContractSubject {
  startServer(options: FakeAiServerOptions): Promise<FakeAiServer>;
  /** The adapter pointed at the server; `apiKey` undefined means "no key configured". */
  makeProvider(server: FakeAiServer, options: { apiKey?: string; timeoutMs?: number }): AiProvider;
  /** A catalog id this adapter serves. */
  readonly model: string;
  /** Reads the key the adapter sent from a recorded request. */
  sentKey(headers: Record<string, string | string[] | undefined>): string | undefined;
}

export async function drain(events: AsyncIterable<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const out: ChatStreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

/**
 * For a vendor's request-mapping tests: a fresh fake server before each test (closed after it) and,
 * given `makeProvider`, the adapter on it; a test reads them as `t.server` and `t.provider`.
 */
export function serverPerTest<P = never>(
  startServer: (options: FakeAiServerOptions) => Promise<FakeAiServer>,
  makeProvider?: (server: FakeAiServer) => P,
  options: FakeAiServerOptions = { apiKey: PLATFORM_KEY },
): { readonly server: FakeAiServer; readonly provider: P } {
  const t = {} as { server: FakeAiServer; provider: P };
  beforeEach(async () => {
    t.server = await startServer(options);
    if (makeProvider) t.provider = makeProvider(t.server);
  });
  afterEach(async () => {
    await t.server.close();
  });
  return t;
}

/** The conversation the mapping tests send: a system message, then user, assistant, user. */
export const CONVERSATION = [
  { role: 'system' as const, content: 'Be brief.' },
  { role: 'user' as const, content: 'Hi' },
  { role: 'assistant' as const, content: 'Hello' },
  { role: 'user' as const, content: 'Again' },
];

const rejection = async (p: Promise<unknown>): Promise<unknown> => p.then(() => expect.fail('expected a rejection'), (e: unknown) => e);

/** The behaviour every HTTP adapter promises through the port, checked against a real-wire fake. */
export function providerContract(subject: ContractSubject): void {
  let server: FakeAiServer;
  const request = (): ChatRequest => ({ model: subject.model, messages: [{ role: 'user', content: 'Say hello' }] });
  const provider = (opts: { apiKey?: string; timeoutMs?: number } = { apiKey: PLATFORM_KEY }) => subject.makeProvider(server, opts);

  beforeEach(async () => {
    server = await subject.startServer({ apiKey: PLATFORM_KEY, models: ['m-1', 'm-2'] });
  });
  afterEach(async () => {
    await server.close();
  });

  it('parses a completion and its token usage', async () => {
    server.setBehaviour({ kind: 'reply', usage: { prompt: 21, completion: 7 } });
    const completion = await provider().complete(request());
    expect(completion).toMatchObject({ model: subject.model, content: DEFAULT_CHUNKS.join(''), usage: { promptTokens: 21, completionTokens: 7, totalTokens: 28 } });
    expect(completion.id).toBeTruthy();
    expect(subject.sentKey(server.lastRequest().headers)).toBe(PLATFORM_KEY);
  });

  it('streams text deltas in order, then one done event with the usage', async () => {
    server.setBehaviour({ kind: 'reply', chunks: ['a', 'bc', 'd'], usage: { prompt: 5, completion: 3 }, chunkDelayMs: 5 });
    const events = await drain(provider().stream(request()));
    const done = events[events.length - 1];
    expect(events.filter((e) => e.type === 'delta').map((e) => (e.type === 'delta' ? e.text : ''))).toEqual(['a', 'bc', 'd']);
    expect(done).toMatchObject({ type: 'done', usage: { promptTokens: 5, completionTokens: 3, totalTokens: 8 } });
    expect(events.filter((e) => e.type === 'done')).toHaveLength(1);
  });

  it('lists models (the health call)', async () => {
    expect(await provider().listModels()).toEqual(['m-1', 'm-2']);
  });

  it('turns a 500 with the vendor error body into ProviderError kind http', async () => {
    server.setBehaviour({ kind: 'error', status: 500 });
    const err = await rejection(provider().complete(request()));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ code: 'PROVIDER_ERROR', kind: 'http', status: 500, provider: provider().name });
    expect((err as ProviderError).upstreamMessage).toBeTruthy();
    const streamErr = await rejection(drain(provider().stream(request())));
    expect(streamErr).toMatchObject({ kind: 'http', status: 500 });
  });

  it('never puts the API key in an error, even when the vendor echoes it', async () => {
    const wrong = 'sk-wrong-key-abcdefghijklmnopqrstuvwxyz';
    const err = (await rejection(provider({ apiKey: wrong }).complete(request()))) as ProviderError;
    expect(err).toMatchObject({ kind: 'http' });
    const text = `${err.message} ${err.upstreamMessage ?? ''} ${JSON.stringify(err.details)}`;
    expect(text).not.toContain(wrong);
    expect(text).not.toContain(wrong.slice(-4) + '.'); // no masked echo either
  });

  it('times out a slow server with ProviderError kind timeout, within the configured timeout', async () => {
    server.setBehaviour({ kind: 'slow', delayMs: 5_000 });
    const started = Date.now();
    const err = await rejection(provider({ apiKey: PLATFORM_KEY, timeoutMs: 150 }).complete(request()));
    expect(err).toMatchObject({ code: 'PROVIDER_ERROR', kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('times out a stream that stalls after its first delta (idle timeout)', async () => {
    server.setBehaviour({ kind: 'stall', chunks: ['partial'] });
    const seen: ChatStreamEvent[] = [];
    const err = await rejection((async () => {
      for await (const e of provider({ apiKey: PLATFORM_KEY, timeoutMs: 150 }).stream(request())) seen.push(e);
    })());
    expect(err).toMatchObject({ kind: 'timeout' });
    expect(seen).toEqual([{ type: 'delta', text: 'partial' }]);
    await server.lastRequest().closed;
    expect(server.lastRequest().closedByClient).toBe(true);
  });

  it('cancels the HTTP request when the caller aborts mid-stream: the server sees the connection close', async () => {
    server.setBehaviour({ kind: 'stall', chunks: ['first'] });
    const controller = new AbortController();
    const err = await rejection((async () => {
      for await (const e of provider().stream(request(), { signal: controller.signal })) if (e.type === 'delta') controller.abort();
    })());
    expect(err).toMatchObject({ name: 'AbortError' });
    expect(err).not.toBeInstanceOf(ProviderError);
    const seen = server.lastRequest();
    await seen.closed;
    expect(seen.closedByClient).toBe(true);
  });

  it('closes the connection when the consumer stops reading early', async () => {
    server.setBehaviour({ kind: 'stall', chunks: ['first'] });
    for await (const e of provider().stream(request())) if (e.type === 'delta') break;
    await server.lastRequest().closed;
    expect(server.lastRequest().closedByClient).toBe(true);
  });

  it('rejects at once with the reason when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(provider().complete(request(), { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests).toHaveLength(0);
  });

  it('tells `progress` once the request has gone out, and a call aborted before it went out never', async () => {
    server.setBehaviour({ kind: 'stall' });
    const sent: string[] = [];
    const progress = { sent: () => sent.push('sent'), promptTokens: () => undefined };
    const controller = new AbortController();
    const call = provider().complete(request(), { signal: controller.signal, progress });
    call.catch(() => undefined);
    await expect.poll(() => server.requests.length).toBe(1);
    expect(sent).toEqual(['sent']);
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });

    const early = new AbortController();
    early.abort();
    await expect(provider().complete(request(), { signal: early.signal, progress })).rejects.toMatchObject({ name: 'AbortError' });
    expect(sent).toEqual(['sent']);
  });

  it('lets a BYOK key override the configured one', async () => {
    await server.close();
    server = await subject.startServer({ apiKey: USER_KEY });
    const completion = await provider().complete(request(), { apiKey: USER_KEY });
    expect(completion.content).toBe(DEFAULT_CHUNKS.join(''));
    expect(subject.sentKey(server.lastRequest().headers)).toBe(USER_KEY);
  });

  it('is unconfigured without a key: calls throw ProviderUnavailableError and send nothing, unless BYOK', async () => {
    const bare = provider({});
    expect(bare.isConfigured()).toBe(false);
    expect(provider().isConfigured()).toBe(true);
    await expect(bare.complete(request())).rejects.toBeInstanceOf(ProviderUnavailableError);
    await expect(drain(bare.stream(request()))).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    await expect(bare.listModels()).rejects.toBeInstanceOf(ProviderUnavailableError);
    expect(server.requests).toHaveLength(0);
    await expect(bare.complete(request(), { apiKey: PLATFORM_KEY })).resolves.toMatchObject({ content: DEFAULT_CHUNKS.join('') });
  });

  it('reports a malformed body as ProviderError kind bad_response', async () => {
    server.setBehaviour({ kind: 'malformed' });
    await expect(provider().complete(request())).rejects.toMatchObject({ kind: 'bad_response' });
    await expect(drain(provider().stream(request()))).rejects.toMatchObject({ kind: 'bad_response' });
  });

  it('turns the vendor error event inside a stream into ProviderError', async () => {
    server.setBehaviour({ kind: 'stream-error', chunks: ['partial'] });
    await expect(drain(provider().stream(request()))).rejects.toMatchObject({ code: 'PROVIDER_ERROR', kind: 'http' });
  });

  it('reports an unreachable server as ProviderError kind network', async () => {
    const gone = provider();
    await server.close();
    await expect(gone.complete(request())).rejects.toMatchObject({ kind: 'network' });
    server = await subject.startServer({});
  });
}
