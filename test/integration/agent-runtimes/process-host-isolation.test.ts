import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeSpec } from '../../../src/application/ports/agent-runtime.port.js';
import { ProcessAgentRuntime } from '../../../src/adapters/outbound/agent-runtimes/process/process-agent-runtime.js';
import { loadConfig } from '../../../src/bootstrap/config.js';
import type { UserId } from '../../../src/domain/shared/ids.js';
import { startStandInService } from '../../support/agent-runtimes/stand-in-service.js';

/**
 * The process runtime as root (this machine's tests run as root): each instance's agent-host runs
 * under its own uid, and what runs under that uid cannot reach the service's secrets nor another
 * instance. The attacker is a process started under a host's exact uid and gid (what the program, or
 * anything it starts, can do), trying to read DATA_DIR/secrets.json and /proc/<pid>/environ, and to
 * signal the service and the other host.
 */
const TOKEN = `gw_${randomUUID()}`;
const RANGE = { first: 1_900_000_000, last: 1_900_000_009 };
const isRoot = process.getuid?.() === 0;

let service: Awaited<ReturnType<typeof startStandInService>>;
let r: ProcessAgentRuntime;
let dataDir: string;
beforeAll(async () => {
  service = await startStandInService(TOKEN);
  r = new ProcessAgentRuntime({ uidRange: RANGE, stopTimeoutMs: 2_000 });
  // the service's own secrets file, made as the service makes it
  dataDir = join(mkdtempSync(join(tmpdir(), 'host-isolation-')), 'data');
  loadConfig({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await r.close();
  await service.close();
  rmSync(dirnameOf(dataDir), { recursive: true, force: true });
});

const dirnameOf = (p: string) => p.slice(0, p.lastIndexOf('/'));
const spec = (): RuntimeSpec => ({ userId: randomUUID() as UserId, runtimeVersion: 'test-1', ramCapBytes: 256 * 2 ** 20, gatewayToken: TOKEN, serviceUrl: service.url });
const delivery = { agentId: 'a', model: 'm', content: 'hi', config: {}, memory: {}, history: [] };

/** Real, effective, saved and filesystem ids, and supplementary groups, of a running process. */
function idsOf(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const line = (name: string) => (status.match(new RegExp(`^${name}:[ \\t]*(.*)$`, 'm'))?.[1] ?? '').trim().split(/\s+/).filter(Boolean).map(Number);
  return { uid: line('Uid'), gid: line('Gid'), groups: line('Groups') };
}

/** What a process under `uid`/`gid` gets when it tries each file and each signal: 'read'/'sent' or the errno code. */
function probeAs(id: { uid: number; gid: number }, files: string[], pids: number[]): { files: string[]; signals: string[] } {
  const script = `
    const fs = require('node:fs');
    const [files, pids] = JSON.parse(process.argv[1]);
    const attempt = (f) => { try { f(); return 'ok'; } catch (e) { return e.code; } };
    process.stdout.write(JSON.stringify({
      files: files.map((f) => attempt(() => fs.readFileSync(f))),
      signals: pids.map((p) => attempt(() => process.kill(p, 0))),
    }));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script, JSON.stringify([files, pids])], { ...id, cwd: '/', env: { PATH: process.env.PATH }, encoding: 'utf8' }));
}

describe.runIf(isRoot)('agent hosts under the process runtime, as root', () => {
  it('when two instances run, then each program runs under its own uid and gid from the range (all four ids), with no supplementary groups, and still answers', async () => {
    const a = spec();
    const b = spec();
    await Promise.all([r.start(a), r.start(b)]);
    const ia = idsOf(r.pidOf(a.userId)!);
    const ib = idsOf(r.pidOf(b.userId)!);
    for (const ids of [ia, ib]) {
      expect(new Set(ids.uid).size).toBe(1);
      expect(ids.gid).toEqual(ids.uid);
      expect(ids.uid[0]).toBeGreaterThanOrEqual(RANGE.first);
      expect(ids.uid[0]).toBeLessThanOrEqual(RANGE.last);
      expect(ids.groups).toEqual([]);
    }
    expect(ia.uid[0]).not.toBe(ib.uid[0]);
    await expect(r.deliver(a.userId, delivery)).resolves.toMatchObject({ content: 'Hello' });
    await Promise.all([r.stop(a.userId), r.stop(b.userId)]);
  });

  it('when a process runs under a host\'s uid, then it cannot read secrets.json nor the service\'s or the other host\'s environment, nor signal either; its own it can', async () => {
    const a = spec();
    const b = spec();
    await Promise.all([r.start(a), r.start(b)]);
    const hostA = r.pidOf(a.userId)!;
    const hostB = r.pidOf(b.userId)!;
    const [uid] = idsOf(hostA).uid as [number];
    const secrets = join(dataDir, 'secrets.json');

    const attacker = probeAs({ uid, gid: uid }, [secrets, `/proc/${process.pid}/environ`, `/proc/${hostB}/environ`, `/proc/${hostA}/environ`], [process.pid, hostB, hostA]);
    expect(attacker.files).toEqual(['EACCES', 'EACCES', 'EACCES', 'ok']);
    expect(attacker.signals).toEqual(['EPERM', 'EPERM', 'ok']);

    // the probe itself is sound: as root the same reads and signals succeed
    const root = probeAs({ uid: 0, gid: 0 }, [secrets, `/proc/${hostB}/environ`], [hostB]);
    expect(root).toEqual({ files: ['ok', 'ok'], signals: ['ok'] });
    expect(r.isRunning(b.userId)).toBe(true);
  });
});
