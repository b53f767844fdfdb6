import { afterEach, describe, expect, it } from 'vitest';
import { startInstanceSupervisor, type SupervisorParts } from '../../../src/adapters/inbound/agent-supervision/instance-supervisor.js';

const log = { debug() {}, info() {}, warn() {}, error() {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The supervisor with the test's reconcile (beats every 20 ms), counting reconciles and renewals. */
function supervise(reconcile: () => Promise<void>) {
  const calls = { reconciles: 0, renewals: 0 };
  const supervisor = startInstanceSupervisor({
    runtime: { onExit() {} },
    leases: { workerId: 'w:1' },
    commands: { claim: async () => null, answer: async () => {} },
    reconcile: {
      execute: () => {
        calls.reconciles++;
        return reconcile();
      },
      renewLeases: async () => void calls.renewals++,
    },
    apply: { execute: async () => ({ ok: true }) },
    exits: { execute: async () => {} },
    log,
    heartbeatMs: 20,
    leaseMs: 100,
    commandPollMs: 1_000,
  } as unknown as SupervisorParts);
  return { calls, supervisor };
}

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

describe('the instance supervisor', () => {
  it('when a reconcile waits on slow starts, then the next beats renew the leases instead of queueing reconciles behind it', async () => {
    let finishReconcile: () => void = () => {};
    const { calls, supervisor } = supervise(() => new Promise<void>((r) => (finishReconcile = r)));
    stop = async () => {
      finishReconcile();
      await supervisor.stop();
    };
    // the first reconcile runs at once and stays open for many beats (a lease's worth and more)
    await sleep(200);
    expect(calls.reconciles).toBe(1);
    expect(calls.renewals).toBeGreaterThanOrEqual(4);
    // once it ends, the next beat reconciles again, and no backlog of queued reconciles follows
    finishReconcile();
    await sleep(60);
    expect(calls.reconciles).toBe(2);
  });

  it('when reconciles end in time, then every beat reconciles and none renews on its own', async () => {
    const { calls, supervisor } = supervise(async () => {});
    stop = () => supervisor.stop();
    await sleep(150);
    expect(calls.reconciles).toBeGreaterThanOrEqual(4);
    expect(calls.renewals).toBe(0);
  });
});
