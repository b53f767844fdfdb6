import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RuntimeReplyError, RuntimeUnavailableError } from '../../../src/application/agents/runtime.errors.js';
import type { Delivery, RuntimeExit, RuntimeSpec } from '../../../src/application/ports/agent-runtime.port.js';
import { ProcessAgentRuntime, type ProcessRuntimeOptions } from '../../../src/adapters/outbound/agent-runtimes/process/process-agent-runtime.js';
import type { UserId } from '../../../src/domain/shared/ids.js';
import { startStandInService } from '../../support/agent-runtimes/stand-in-service.js';
import { sleep } from '../../support/polling.js';
import { cpuTicks } from '../../support/proc.js';

const MB = 2 ** 20;
const TOKEN = `gw_${randomUUID()}`;
const PARENT_SECRETS = {
  JWT_SECRET: 'parent-jwt-secret-must-not-leak-0123456789',
  DATABASE_URL: 'postgres://app:parent-db-password@127.0.0.1/app',
  OPENAI_API_KEY: 'sk-parent-provider-key-must-not-leak',
};

let service: Awaited<ReturnType<typeof startStandInService>>;
const runtimes: ProcessAgentRuntime[] = [];
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  for (const [k, v] of Object.entries(PARENT_SECRETS)) (saved[k] = process.env[k]), (process.env[k] = v);
  service = await startStandInService(TOKEN);
});
afterAll(async () => {
  for (const [k, v] of Object.entries(saved)) v === undefined ? delete process.env[k] : (process.env[k] = v);
  await service.close();
});
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((r) => r.close()));
  service.set({ kind: 'answer', deltas: ['Hel', 'lo'] });
});

function runtime(options: ProcessRuntimeOptions = {}) {
  const r = new ProcessAgentRuntime({ testHooks: true, stopTimeoutMs: 2_000, ...options });
  runtimes.push(r);
  const exits: { userId: UserId; exit: RuntimeExit; at: number }[] = [];
  r.onExit((userId, exit) => exits.push({ userId, exit, at: Date.now() }));
  return { r, exits };
}

const spec = (over: Partial<RuntimeSpec> = {}): RuntimeSpec => ({
  userId: randomUUID() as UserId,
  runtimeVersion: 'test-1',
  ramCapBytes: 512 * MB,
  gatewayToken: TOKEN,
  serviceUrl: service.url,
  ...over,
});

const delivery = (over: Partial<Delivery> = {}): Delivery => ({
  agentId: 'agent-1',
  model: 'gpt-test',
  content: 'What is my name?',
  config: { systemPrompt: 'You are Ada, a terse assistant.', temperature: 0.3, maxTokens: 256 },
  memory: { name: 'Grace', likes: ['tea'] },
  history: [
    { role: 'user', content: 'Hi' },
    { role: 'assistant', content: 'Hello.' },
  ],
  ...over,
});

const within5s = { timeout: 5_000, interval: 25 };
/** Running (a zombie waiting for its reaper counts as gone). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

describe('ProcessAgentRuntime (real processes)', () => {
  it('when a message is delivered, then the program asks the service once with the built prompt and streams its answer back', async () => {
    const { r } = runtime();
    const s = spec();
    await r.start(s);
    expect(r.isRunning(s.userId)).toBe(true);
    const deltas: string[] = [];
    const reply = await r.deliver(s.userId, delivery(), { onDelta: (t) => deltas.push(t) });

    expect(deltas).toEqual(['Hel', 'lo']);
    expect(reply).toMatchObject({ content: 'Hello', model: 'stand-in-model', usage: { promptTokens: 11, completionTokens: 2, totalTokens: 13 } });
    expect(reply.durationMs).toBeGreaterThanOrEqual(0);
    expect(service.calls).toHaveLength(1);
    const call = service.calls[0]!;
    expect(call.authorization).toBe(`Bearer ${TOKEN}`);
    expect(call.accept).toBe('text/event-stream');
    expect(call.body).toEqual({
      agentId: 'agent-1',
      model: 'gpt-test',
      temperature: 0.3,
      max_tokens: 256,
      messages: [
        { role: 'system', content: 'You are Ada, a terse assistant.' },
        { role: 'system', content: expect.stringMatching(/likes: \["tea"\]\nname: "Grace"$/) },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello.' },
        { role: 'user', content: 'What is my name?' },
      ],
    });
    service.calls.length = 0;
  });

  it('when no onDelta is given, then the service is asked for plain JSON', async () => {
    const { r } = runtime();
    const s = spec();
    await r.start(s);
    service.set({ kind: 'answer', deltas: ['Plain ', 'answer'], model: 'json-model' });
    const reply = await r.deliver(s.userId, delivery({ config: {}, memory: {}, history: [] }));
    expect(reply).toMatchObject({ content: 'Plain answer', model: 'json-model' });
    const call = service.calls.at(-1)!;
    expect(call.accept).toBe('application/json');
    expect(call.body.messages).toHaveLength(2); // the default system prompt, then the message
    expect(call.body).not.toHaveProperty('temperature');
    service.calls.length = 0;
  });

  it('when started twice (also concurrently), then the second start joins the running program', async () => {
    const { r } = runtime();
    const s = spec();
    await Promise.all([r.start(s), r.start(s)]);
    const pid = r.pidOf(s.userId);
    await r.start(s);
    expect(r.pidOf(s.userId)).toBe(pid);
  });

  it('when started with another spec, or while stopping, then a new program replaces the old one without an exit report', async () => {
    const { r, exits } = runtime();
    const s = spec();
    await r.start(s);
    const first = r.pidOf(s.userId)!;
    await r.start({ ...s, runtimeVersion: 'test-2' });
    const second = r.pidOf(s.userId)!;
    expect(second).not.toBe(first);
    expect(alive(first)).toBe(false);

    const stopping = r.stop(s.userId);
    await r.start({ ...s, runtimeVersion: 'test-2' });
    await stopping;
    expect(r.isRunning(s.userId)).toBe(true);
    expect(r.pidOf(s.userId)).not.toBe(second);
    expect(exits).toEqual([]);
  });

  it('when the program runs, then its environment holds none of the parent secrets nor the gateway token', async () => {
    const { r } = runtime();
    const s = spec();
    await r.start(s);
    const environ = readFileSync(`/proc/${r.pidOf(s.userId)}/environ`, 'utf8').split('\0').filter(Boolean);
    const names = environ.map((e) => e.slice(0, e.indexOf('=')));
    expect(names).toContain('AGENT_HOST_USER_ID');
    for (const [k, v] of Object.entries(PARENT_SECRETS)) {
      expect(names).not.toContain(k);
      expect(environ.join('\n')).not.toContain(v);
    }
    expect(environ.join('\n')).not.toContain(TOKEN);
    // the heap limit is half the plan's cap; the nursery stays small (decision 0472)
    const cmdline = readFileSync(`/proc/${r.pidOf(s.userId)}/cmdline`, 'utf8').split('\0');
    expect(cmdline).toContain('--max-old-space-size=256');
    expect(cmdline).toContain('--max-semi-space-size=1');
    expect(cmdline).toContain('--optimize-for-size');
    expect(names.filter((n) => !n.startsWith('AGENT_HOST_') && !n.startsWith('NODE_CHANNEL_'))).toEqual(['PATH', 'LANG', 'TZ']);
  });

  it('when the service fails, then the delivery rejects with RuntimeReplyError carrying the service code, and no reply is made up', async () => {
    const { r } = runtime();
    const s = spec();
    await r.start(s);
    service.set({ kind: 'fail', status: 402, code: 'USAGE_EXHAUSTED' });
    const err = await r.deliver(s.userId, delivery()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RuntimeReplyError);
    expect((err as RuntimeReplyError).failure).toBe('USAGE_EXHAUSTED');

    service.set({ kind: 'stream-error', deltas: ['par'], code: 'PROVIDER_ERROR' });
    const deltas: string[] = [];
    const streamed = await r.deliver(s.userId, delivery(), { onDelta: (t) => deltas.push(t) }).catch((e: unknown) => e);
    expect((streamed as RuntimeReplyError).failure).toBe('PROVIDER_ERROR');
    expect(deltas).toEqual(['par']);

    const badToken = spec({ gatewayToken: 'not-the-token' });
    await r.start(badToken);
    const refused = await r.deliver(badToken.userId, delivery()).catch((e: unknown) => e);
    expect((refused as RuntimeReplyError).failure).toBe('UNAUTHORIZED');

    const unreachable = spec({ serviceUrl: 'http://127.0.0.1:9' });
    await r.start(unreachable);
    const down = await r.deliver(unreachable.userId, delivery()).catch((e: unknown) => e);
    expect((down as RuntimeReplyError).failure).toBe('SERVICE_UNREACHABLE');
    service.calls.length = 0;
  });

  it('when the delivery is aborted, then it rejects with an AbortError and the service sees its request closed', async () => {
    const { r } = runtime();
    const s = spec();
    await r.start(s);
    service.set({ kind: 'hang', deltas: ['thinking'] });
    const controller = new AbortController();
    const arrived = service.nextCall();
    const deltas: string[] = [];
    const pending = r.deliver(s.userId, delivery(), { signal: controller.signal, onDelta: (t) => deltas.push(t) });
    const call = await arrived;
    await expect.poll(() => deltas.length, within5s).toBeGreaterThan(0);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect(Promise.race([call.clientLeft.then(() => 'closed'), new Promise((r) => setTimeout(() => r('still open'), 3_000))])).resolves.toBe('closed');
    // the program is still fine
    service.set({ kind: 'answer', deltas: ['ok'] });
    await expect(r.deliver(s.userId, delivery())).resolves.toMatchObject({ content: 'ok' });
    service.calls.length = 0;
  });

  it('when the program is killed from outside, then onExit reports crashed within 5 s and a pending delivery rejects', async () => {
    const { r, exits } = runtime();
    const s = spec();
    await r.start(s);
    service.set({ kind: 'hang', deltas: [] });
    const arrived = service.nextCall();
    const pending = r.deliver(s.userId, delivery()).catch((e: unknown) => e);
    await arrived;
    const killedAt = Date.now();
    process.kill(r.pidOf(s.userId)!, 'SIGKILL');

    expect(await pending).toBeInstanceOf(RuntimeUnavailableError);
    await expect.poll(() => exits.length, within5s).toBeGreaterThan(0);
    expect(exits).toEqual([{ userId: s.userId, exit: { reason: 'crashed', code: null, signal: 'SIGKILL', detail: 'killed by SIGKILL' }, at: expect.any(Number) }]);
    expect(exits[0]!.at - killedAt).toBeLessThan(5_000);
    expect(r.isRunning(s.userId)).toBe(false);
    await expect(r.deliver(s.userId, delivery())).rejects.toBeInstanceOf(RuntimeUnavailableError);
    expect(await r.stats(s.userId)).toBeNull();
    service.calls.length = 0;
  });

  it('when the program grows past its RAM cap, then the watchdog kills it and onExit reports memory_cap', async () => {
    // the program under tsx starts near 100 MB (node, tsx and its esbuild helper)
    const { r, exits } = runtime({ watchdogIntervalMs: 200 });
    const s = spec({ ramCapBytes: 160 * MB });
    await r.start(s);
    // the watchdog may kill it before it acknowledges: either way is fine here
    await r.debug(s.userId, { type: 'allocate', bytes: 128 * MB }).catch((e: unknown) => expect(e).toBeInstanceOf(RuntimeUnavailableError));
    await expect.poll(() => exits.length, within5s).toBeGreaterThan(0);
    expect(exits[0]!.exit).toMatchObject({ reason: 'memory_cap', signal: 'SIGKILL', detail: expect.stringMatching(/^resident memory \d+ MB above the plan cap 160 MB$/) });
    expect(r.isRunning(s.userId)).toBe(false);
  });

  it('when asked for stats, then they come from /proc and make sense; null when not running', async () => {
    const { r } = runtime();
    const s = spec();
    expect(await r.stats(s.userId)).toBeNull();
    await r.start(s);
    const first = (await r.stats(s.userId))!;
    expect(first.rssBytes).toBeGreaterThan(10 * MB);
    expect(first.memoryPercent).toBeCloseTo((first.rssBytes / s.ramCapBytes) * 100, 0);
    expect(first.pids).toBeGreaterThanOrEqual(1);
    expect(first.cpuPercent).toBeGreaterThanOrEqual(0);
    await expect.poll(async () => (await r.stats(s.userId))!.uptimeMs).toBeGreaterThan(first.uptimeMs);
    const second = (await r.stats(s.userId))!;
    expect(second.cpuPercent).toBeGreaterThanOrEqual(0);
    expect(second.cpuPercent).toBeLessThan(100 * 64);
  });

  it('when stopped, then it is gone and nothing is reported; reset-memory clears the program state', async () => {
    const { r, exits } = runtime();
    const s = spec();
    await r.start(s);
    await r.deliver(s.userId, delivery());
    expect(await r.debug(s.userId, { type: 'state' })).toBe(1);
    await r.resetMemory(s.userId);
    expect(await r.debug(s.userId, { type: 'state' })).toBe(0);

    const pid = r.pidOf(s.userId)!;
    await r.stop(s.userId);
    expect(r.isRunning(s.userId)).toBe(false);
    expect(alive(pid)).toBe(false);
    await r.stop(s.userId); // stopping what does not run is fine
    await sleep(200); // a negative: an exit report for the program we stopped would have come by now
    expect(exits).toEqual([]);
    await expect(r.deliver(s.userId, delivery())).rejects.toBeInstanceOf(RuntimeUnavailableError);
    await expect(r.resetMemory(s.userId)).rejects.toBeInstanceOf(RuntimeUnavailableError);
    service.calls.length = 0;
  });

  it('when the program is stuck and ignores SIGTERM, then stop kills it after the stop timeout; close stops every program', async () => {
    const { r, exits } = runtime({ stopTimeoutMs: 500 });
    const stuck = spec();
    const other = spec();
    await Promise.all([r.start(stuck), r.start(other)]);
    const pids = [r.pidOf(stuck.userId)!, r.pidOf(other.userId)!];
    const idleTicks = cpuTicks(pids[0]!);
    void r.debug(stuck.userId, { type: 'block', ms: 30_000 }).catch(() => undefined);
    // stuck: it spins, burning a tenth of a second of CPU time where an idle program burns none
    await expect.poll(() => cpuTicks(pids[0]!) - idleTicks, within5s).toBeGreaterThanOrEqual(10);
    const t = Date.now();
    await r.stop(stuck.userId);
    expect(Date.now() - t).toBeLessThan(3_000);
    expect(alive(pids[0]!)).toBe(false);

    await r.close();
    expect(alive(pids[1]!)).toBe(false);
    expect(r.isRunning(other.userId)).toBe(false);
    expect(exits).toEqual([]);
  });

  it('when the program does not answer its readiness check in time, then start throws RuntimeUnavailableError and leaves nothing running', async () => {
    const { r, exits } = runtime({ startTimeoutMs: 50 });
    const s = spec();
    await expect(r.start(s)).rejects.toBeInstanceOf(RuntimeUnavailableError);
    expect(r.isRunning(s.userId)).toBe(false);
    expect(exits).toEqual([]);
  });

  it('when the supervisor dies, then its program exits on its own', async () => {
    const parent = fork('test/support/agent-runtimes/runtime-parent.ts', [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    try {
      let out = '';
      parent.stdout!.on('data', (d) => (out += d));
      await expect.poll(() => out, { timeout: 20_000, interval: 25 }).toContain('\n');
      const { pid } = JSON.parse(out) as { pid: number };
      expect(alive(pid)).toBe(true);
      parent.kill('SIGKILL');
      await expect.poll(() => alive(pid), within5s).toBe(false);
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it.runIf(process.getuid?.() === 0)('when configured to run as nobody, then the program runs unprivileged and still answers', async () => {
    const { r } = runtime({ runAs: { uid: 65534, gid: 65534 } });
    const s = spec();
    await r.start(s);
    const status = readFileSync(`/proc/${r.pidOf(s.userId)}/status`, 'utf8');
    expect(status).toMatch(/^Uid:\s+65534\s+65534\s+65534\s+65534$/m);
    expect(status).toMatch(/^Groups:\s*$/m);
    await expect(r.deliver(s.userId, delivery())).resolves.toMatchObject({ content: 'Hello' });
    service.calls.length = 0;
  });
});
