import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { lazyChildLoggerFactory } from '../../../src/adapters/inbound/http/lazy-request-logger.js';

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({ write(chunk, _enc, done) { lines.push(JSON.parse(String(chunk))); done(); } });
  return { logger: pino({ level }, stream), lines };
}

describe("a request's lazy logger", () => {
  it('when nothing is logged at an enabled level, then no pino child is built', () => {
    const { logger, lines } = capture('warn');
    const child = vi.spyOn(logger, 'child');
    const log = lazyChildLoggerFactory(logger, { requestId: 'r-1' }, {});
    log.info({ req: 1 }, 'incoming request');
    log.debug('details');
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
    expect(log.level).toBe('warn');
  });

  it('when a line is written at an enabled level, then it carries the request id, and one child serves the request', async () => {
    const { logger, lines } = capture('info');
    const child = vi.spyOn(logger, 'child');
    const log = lazyChildLoggerFactory(logger, { requestId: 'r-2' }, {});
    log.warn({ code: 'X' }, 'first');
    log.error('second');
    await new Promise((r) => setImmediate(r));
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines.map((l) => [l.requestId, l.msg, l.level])).toEqual([['r-2', 'first', 40], ['r-2', 'second', 50]]);
    expect(lines[0]!.code).toBe('X');
  });

  it('when a route sets its own level, then the child is built at once with it', () => {
    const { logger } = capture('info');
    const log = lazyChildLoggerFactory(logger, { requestId: 'r-3' }, { level: 'error' });
    expect(log.level).toBe('error');
  });
});
