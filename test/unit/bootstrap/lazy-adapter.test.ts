import { describe, expect, it, vi } from 'vitest';
import { lazyAdapter } from '../../../src/bootstrap/lazy-adapter.js';

interface Port {
  readonly name: string;
  parse(text: string): number;
  read(id: string): Promise<string>;
  count(): Promise<number>;
}

/** An adapter with state: what it answers shows whether calls reach one instance. */
class Counting {
  private calls = 0;
  constructor(private readonly prefix: string) {}
  async read(id: string): Promise<string> {
    return `${this.prefix}:${id}`;
  }
  async count(): Promise<number> {
    return ++this.calls;
  }
}

describe('lazyAdapter', () => {
  it('when nothing is called, then the adapter is not loaded and the eager part is there', () => {
    const load = vi.fn(async () => new Counting('a'));
    const port = lazyAdapter<Port, 'read' | 'count'>(load, ['read', 'count'], { name: 'n', parse: (t) => t.length });
    expect(port.name).toBe('n');
    expect(port.parse('abc')).toBe(3);
    expect(load).not.toHaveBeenCalled();
  });

  it('when methods are called, at once and later, then one adapter is loaded and every call reaches it with its arguments', async () => {
    const load = vi.fn(async () => new Counting('a'));
    const port = lazyAdapter<Port, 'read' | 'count'>(load, ['read', 'count'], { name: 'n', parse: () => 0 });
    expect(await Promise.all([port.count(), port.count(), port.read('x')])).toEqual([1, 2, 'a:x']);
    expect(await port.count()).toBe(3);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('when the load fails, then that call fails with its error and the next call loads again', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('no module')).mockImplementation(async () => new Counting('b'));
    const port = lazyAdapter<Port, 'read' | 'count'>(load, ['read', 'count'], { name: 'n', parse: () => 0 });
    await expect(port.read('x')).rejects.toThrow('no module');
    expect(await port.read('y')).toBe('b:y');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("when the adapter's method fails, then the caller gets its error and the adapter stays loaded", async () => {
    const load = vi.fn(async () => ({ read: async () => Promise.reject(new Error('node down')), count: async () => 7 }));
    const port = lazyAdapter<Port, 'read' | 'count'>(load, ['read', 'count'], { name: 'n', parse: () => 0 });
    await expect(port.read('x')).rejects.toThrow('node down');
    expect(await port.count()).toBe(7);
    expect(load).toHaveBeenCalledTimes(1);
  });
});
