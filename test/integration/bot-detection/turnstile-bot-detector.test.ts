import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AllowAllBotDetector } from '../../../src/adapters/outbound/bot-detection/allow-all-bot-detector.js';
import { TurnstileBotDetector } from '../../../src/adapters/outbound/bot-detection/turnstile-bot-detector.js';
import { UpstreamUnavailableError } from '../../../src/application/errors.js';

interface Received {
  method: string;
  path: string;
  contentType: string;
  form: URLSearchParams;
}
type Reply = { status: number; body: unknown } | 'hang';

/** A local siteverify endpoint: records each request and answers what the test says. */
async function fakeTurnstile(reply: (form: URLSearchParams) => Reply) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      received.push({ method: req.method ?? '', path: req.url ?? '', contentType: req.headers['content-type'] ?? '', form });
      const r = reply(form);
      if (r === 'hang') return; // never answers
      res.writeHead(r.status, { 'content-type': 'application/json' }).end(JSON.stringify(r.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

const SECRET = '0x4AAAAAAA-test-secret';
const detector = (baseUrl: string, timeoutMs = 2_000) => new TurnstileBotDetector({ secret: SECRET, baseUrl, timeoutMs });

describe('TurnstileBotDetector', () => {
  it('when the verifier says success, then the caller is human and the form carried secret, response and remoteip', async () => {
    const cf = await fakeTurnstile(() => ({ status: 200, body: { success: true, 'error-codes': [], hostname: 'app.test' } }));

    await expect(detector(cf.baseUrl).isHuman({ token: 'tok-123', ip: '203.0.113.7' })).resolves.toBe(true);

    expect(cf.received).toHaveLength(1);
    const r = cf.received[0]!;
    expect(r.method).toBe('POST');
    expect(r.path).toBe('/turnstile/v0/siteverify');
    expect(r.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(r.form)).toEqual({ secret: SECRET, response: 'tok-123', remoteip: '203.0.113.7' });
  });

  it('when the verifier rejects the token, then the caller is not human', async () => {
    const cf = await fakeTurnstile(() => ({ status: 200, body: { success: false, 'error-codes': ['invalid-input-response'] } }));
    await expect(detector(cf.baseUrl).isHuman({ token: 'forged', ip: '203.0.113.7' })).resolves.toBe(false);
  });

  it('when the token was already used, then the caller is not human', async () => {
    const cf = await fakeTurnstile(() => ({ status: 200, body: { success: false, 'error-codes': ['timeout-or-duplicate'] } }));
    await expect(detector(cf.baseUrl).isHuman({ token: 'old', ip: '203.0.113.7' })).resolves.toBe(false);
  });

  it('when the token is missing or empty, then the caller is not human and the verifier is not called', async () => {
    const cf = await fakeTurnstile(() => ({ status: 200, body: { success: true } }));
    await expect(detector(cf.baseUrl).isHuman({ token: undefined, ip: '203.0.113.7' })).resolves.toBe(false);
    await expect(detector(cf.baseUrl).isHuman({ token: '', ip: '203.0.113.7' })).resolves.toBe(false);
    expect(cf.received).toHaveLength(0);
  });

  it('when the verifier says our secret is invalid, then it fails closed with UpstreamUnavailableError', async () => {
    const cf = await fakeTurnstile(() => ({ status: 200, body: { success: false, 'error-codes': ['invalid-input-secret'] } }));
    await expect(detector(cf.baseUrl).isHuman({ token: 'tok', ip: '203.0.113.7' })).rejects.toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      upstream: 'bot detection',
    });
  });

  it('when the verifier answers 500, then it fails closed with UpstreamUnavailableError', async () => {
    const cf = await fakeTurnstile(() => ({ status: 500, body: { error: 'boom' } }));
    const err = await detector(cf.baseUrl).isHuman({ token: 'tok', ip: '203.0.113.7' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamUnavailableError);
    expect(err).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', upstream: 'bot detection' });
  });

  it('when the verifier does not answer in time, then it fails closed within the timeout', async () => {
    const cf = await fakeTurnstile(() => 'hang');
    const started = Date.now();
    await expect(detector(cf.baseUrl, 300).isHuman({ token: 'tok', ip: '203.0.113.7' })).rejects.toBeInstanceOf(UpstreamUnavailableError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('when nothing listens at the base URL, then it fails closed with UpstreamUnavailableError', async () => {
    const cf = await fakeTurnstile(() => ({ status: 200, body: { success: true } }));
    await cleanup.pop()!(); // the port is free again
    await expect(detector(cf.baseUrl).isHuman({ token: 'tok', ip: '203.0.113.7' })).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });
});

describe('AllowAllBotDetector', () => {
  it('when no verifier is configured, then every caller is human, token or not', async () => {
    await expect(new AllowAllBotDetector().isHuman({ token: undefined, ip: '203.0.113.7' })).resolves.toBe(true);
  });
});
