import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/bootstrap/logger.js';

describe('logger redaction of wallet keys', () => {
  it('when an imported private key or a sealed key reaches a log line, then it is redacted', () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const log = createLogger({ LOG_LEVEL: 'info' }, sink);
    const key = `0x${'ab12'.repeat(16)}`;
    log.info({ body: { privateKey: key } }, 'request');
    log.info({ wallet: { privateKey: key, sealedKey: 'c2VhbGVk', address: '0x00000000000000000000000000000000000000aa' } }, 'nested');
    const text = lines.join('');
    expect(text).not.toContain('ab12ab12');
    expect(text).not.toContain('c2VhbGVk');
    expect(text).toContain('0x00000000000000000000000000000000000000aa');
  });
});
