import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/bootstrap/logger.js';

/** The logger's redaction of secrets a request may carry. */
describe('logger redaction', () => {
  it('when an agent credential value (set_credential) is logged, then it is redacted', () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const log = createLogger({ LOG_LEVEL: 'info' }, sink);
    log.info({ body: { action: 'set_credential', name: 'GITHUB_TOKEN', value: 'ghp_secret' } }, 'request');
    log.info({ credential: { value: 'ghp_secret' } }, 'nested');
    const text = lines.join('');
    expect(text).not.toContain('ghp_secret');
    expect(text).toContain('GITHUB_TOKEN');
  });
});
