import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { isForbiddenAddress, HttpWebhookDelivery } from '../../../src/adapters/outbound/webhooks/http-webhook-delivery.js';
import { NodeCryptoIdGenerator } from '../../../src/adapters/outbound/crypto/node-crypto-id-generator.js';
import { StandardWebhooksSigner } from '../../../src/adapters/outbound/webhooks/standard-webhooks-signer.js';
import { WebhookSkill } from '../../../src/application/skills/handlers/webhook/webhook.skill.js';
import { SkillCapabilityDeniedError } from '../../../src/application/skills/skill.errors.js';
import { callSkill, skillContext } from '../../support/skills.js';

const secret = `whsec_${randomBytes(24).toString('base64')}`;

/** A receiver that checks signatures as the Standard Webhooks spec says a consumer must. */
function verify(req: IncomingMessage, body: string, key: string): boolean {
  const id = req.headers['webhook-id'];
  const ts = req.headers['webhook-timestamp'];
  const sig = req.headers['webhook-signature'];
  if (typeof id !== 'string' || typeof ts !== 'string' || typeof sig !== 'string') return false;
  if (Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;
  const expected = createHmac('sha256', Buffer.from(key.replace(/^whsec_/, ''), 'base64')).update(`${id}.${ts}.${body}`).digest();
  return sig.split(' ').some((s) => {
    const [version, value] = s.split(',');
    const given = Buffer.from(value ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

const received: { verified: boolean; body: unknown }[] = [];
let hang = false;
const server: Server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    if (hang) return; // never answers: the caller's timeout must fire
    const verified = verify(req, body, secret);
    received.push({ verified, body: JSON.parse(body) });
    res.writeHead(verified ? 204 : 401).end();
  });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
afterAll(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));

/** The receiver checks the signed timestamp against its own time, so the skill reads the real one. */
const wallClock = { now: () => new Date() };
const allowLocal = new WebhookSkill(new HttpWebhookDelivery(), new StandardWebhooksSigner(), { allowPrivate: true, timeoutMs: 500 }, wallClock, new NodeCryptoIdGenerator());
const strict = new WebhookSkill(new HttpWebhookDelivery(), new StandardWebhooksSigner(), { allowPrivate: false, timeoutMs: 500 }, wallClock, new NodeCryptoIdGenerator());
const ctx = skillContext('00000000-0000-4000-8000-000000000001', allowLocal);

describe('webhook skill', () => {
  it('when an event is sent, then the receiver verifies its Standard Webhooks signature and gets the data', async () => {
    const r = await callSkill(allowLocal, ctx, { action: 'send', url, secret, eventType: 'show.booked', data: { venue: 'Fabric', fee: 1500 } });
    expect(r).toMatchObject({ delivered: true, status: 204 });
    expect(r.webhookId).toMatch(/^msg_/);
    expect(received.at(-1)).toMatchObject({ verified: true, body: { type: 'show.booked', data: { venue: 'Fabric', fee: 1500 } } });
  });

  it('when the receiver holds another secret, then it rejects the signature and the skill reports not delivered', async () => {
    const other = `whsec_${randomBytes(24).toString('base64')}`;
    expect(await callSkill(allowLocal, ctx, { action: 'send', url, secret: other, data: {} })).toMatchObject({ delivered: false, status: 401 });
    expect(received.at(-1)!.verified).toBe(false);
  });

  it('when the target does not answer in time or cannot be reached, then the call is UPSTREAM_UNAVAILABLE', async () => {
    hang = true;
    try {
      await expect(callSkill(allowLocal, ctx, { action: 'send', url, secret, data: {} })).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', message: expect.stringMatching(/500 ms/) });
    } finally {
      hang = false;
    }
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await expect(callSkill(allowLocal, ctx, { action: 'send', url: `http://127.0.0.1:${port}/`, secret, data: {} })).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
  });

  it('when private targets are not allowed, then loopback, private and metadata addresses (by address or by name) are refused before any request', async () => {
    const before = received.length;
    for (const target of [url, 'http://localhost:1/', 'http://10.0.0.5/', 'http://169.254.169.254/latest/meta-data', 'http://[::1]:80/', 'http://[::ffff:127.0.0.1]/']) {
      await expect(callSkill(strict, ctx, { action: 'send', url: target, secret, data: {} }), target).rejects.toMatchObject({ code: 'WEBHOOK_TARGET_REFUSED' });
    }
    expect(received.length).toBe(before);
    expect(isForbiddenAddress('93.184.215.14')).toBe(false);
    expect(isForbiddenAddress('2606:4700::1111')).toBe(false);
    expect(isForbiddenAddress('192.168.1.1')).toBe(true);
    expect(isForbiddenAddress('fd00::1')).toBe(true);
  });

  it('when the url, secret or data is malformed, then the input is refused', async () => {
    for (const body of [
      { action: 'send', url: 'ftp://example.test/', secret, data: {} },
      { action: 'send', url: 'not a url', secret, data: {} },
      { action: 'send', url, secret: 'plain-secret', data: {} },
      { action: 'send', url, secret, data: 'x' },
    ]) {
      await expect(callSkill(allowLocal, ctx, body), JSON.stringify(body)).rejects.toBeInstanceOf(ZodError);
    }
  });

  it('when the context does not allow the network, then nothing is sent', async () => {
    const before = received.length;
    await expect(callSkill(allowLocal, skillContext(ctx.userId, allowLocal, []), { action: 'send', url, secret, data: {} })).rejects.toBeInstanceOf(SkillCapabilityDeniedError);
    expect(received.length).toBe(before);
  });
});
