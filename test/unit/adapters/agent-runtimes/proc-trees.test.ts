import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ProcSnapshot, ProcTrees } from '../../../../src/adapters/outbound/agent-runtimes/process/proc-stats.js';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const c of started.splice(0)) c.kill('SIGKILL');
});

/** A shell that starts a sleeping grandchild and waits: a tree of two processes. */
async function treeOfTwo(): Promise<ChildProcess> {
  const child = spawn('sh', ['-c', 'sleep 30 & echo started; wait'], { stdio: ['ignore', 'pipe', 'ignore'] });
  started.push(child);
  await once(child.stdout!, 'data');
  return child;
}

const openFiles = () => readdirSync(`/proc/${process.pid}/fd`).length;

describe.runIf(ProcTrees.supported())('ProcTrees (a process tree read from its root down)', () => {
  it('when a program has a child, then its tree counts both, as the full /proc scan does', async () => {
    const child = await treeOfTwo();
    const trees = new ProcTrees();
    const tree = trees.tree(child.pid!);
    const scanned = (await ProcSnapshot.take()).tree(child.pid!);
    expect(tree?.pids).toBe(2);
    expect(tree?.pids).toBe(scanned?.pids);
    expect(tree!.rssBytes).toBeGreaterThan(0);
    trees.close();
  });

  it('when the root is gone, then its tree is null and its files are closed', async () => {
    const child = await treeOfTwo();
    const trees = new ProcTrees();
    const before = openFiles();
    expect(trees.tree(child.pid!)).not.toBeNull();
    expect(openFiles()).toBe(before + 2);
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(trees.tree(child.pid!)).toBeNull();
    expect(openFiles()).toBe(before);
  });

  it('when a root is no longer asked for, then retain closes its files', async () => {
    const child = await treeOfTwo();
    const trees = new ProcTrees();
    const before = openFiles();
    trees.tree(child.pid!);
    trees.retain(new Set([child.pid!]));
    expect(openFiles()).toBe(before + 2);
    trees.retain(new Set());
    expect(openFiles()).toBe(before);
  });

  it('when a process never existed, then its tree is null and nothing stays open', () => {
    const trees = new ProcTrees();
    const before = openFiles();
    expect(trees.tree(2 ** 22 + 12345)).toBeNull();
    expect(openFiles()).toBe(before);
  });
});
