import http from 'node:http';
import net from 'node:net';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../support/http-client.js';
import { startLocalChain } from '../support/chain/local-chain.js';
import { startSocialIssuer } from '../support/identity/fake-social-issuer.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * GET and POST /api/auth/token-gating/verify (spec "Decentralized social identity and token gating";
 * CONTRACT.md sections 2, 7, 8) against a real EVM: anvil with Base's chain id and TestERC20.
 */
const chain = await startLocalChain();
const token = await chain.deploy('TestERC20', ['Gate Token', 'GATE', 6]);

/**
 * The node as a hosted provider's URL looks: the key in the path and the query. It forwards every
 * JSON-RPC body to anvil (which answers only on `/`), so the app really reads through that URL.
 */
const proxy = http.createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const answer = await fetch(chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) });
  res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
});
await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
const proxyOrigin = `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
afterAll(() => new Promise((r) => proxy.close(r)));

/** A port that accepts connections and never answers: an RPC node that hangs. */
const hung = new Set<net.Socket>();
const silent = net.createServer((s) => void hung.add(s)).listen(0, '127.0.0.1');
await new Promise((r) => silent.once('listening', r));
afterAll(() => new Promise((r) => (silent.close(r), hung.forEach((s) => s.destroy()))));
const refusedPort = await new Promise<number>((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address() as net.AddressInfo;
    s.close(() => resolve(port));
  });
});

const gate = { TOKEN_GATE_ADDRESS: token.address, TOKEN_GATE_MIN_BALANCE: '1.5' };
const onChain = await startTestApp({ env: { ...gate, BASE_RPC_URL: `${proxyOrigin}/v2/SECRET-KEY-IN-PATH?apikey=SECRET-IN-QUERY` } });
const refused = await startTestApp({ env: { ...gate, BASE_RPC_URL: `http://127.0.0.1:${refusedPort}` } });
const hangs = await startTestApp({ env: { ...gate, BASE_RPC_URL: `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`, VERIFICATION_RPC_TIMEOUT_MS: '300' } });
const unconfigured = await startTestApp({ env: { BASE_RPC_URL: chain.rpcUrl } });

const URL_ = '/api/auth/token-gating/verify';
const check = (t: TestApp, payload: object) => call(t.app, { method: 'POST', url: URL_, payload });
const status = (t: TestApp, address: string) => call(t.app, { method: 'GET', url: `${URL_}?address=${encodeURIComponent(address)}` });

async function holder(baseUnits: bigint): Promise<Address> {
  const address = privateKeyToAccount(generatePrivateKey()).address;
  if (baseUnits > 0n) await chain.write(token, 'mint', [address, baseUnits]);
  return address;
}

describe('token gating on chain', () => {
  it('when the wallet holds at least the minimum, then POST says hasAccess with exactly the spec fields', async () => {
    const address = await holder(1_500_000n);
    const res = await check(onChain, { fid: '4242', address });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      fid: '4242',
      address: address.toLowerCase(),
      hasAccess: true,
      tokenGated: true,
      minBalance: '1500000',
      token: 'GATE',
      chain: 'base',
      message: expect.stringContaining('Access granted'),
      timestamp: expect.any(String),
    });
    expect(Number.isNaN(Date.parse(res.body.timestamp))).toBe(false);
  });

  it('when the wallet holds less, then hasAccess is false (GET), with the contract and the node shown without its key', async () => {
    const address = await holder(1_499_999n);
    const res = await status(onChain, address);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      address: address.toLowerCase(),
      hasAccess: false,
      tokenGated: true,
      minBalance: '1500000',
      token: 'GATE',
      chain: 'base',
      contractAddress: token.address,
      rpcEndpoint: proxyOrigin,
    });
    expect(JSON.stringify(res.body)).not.toContain('SECRET');
  });

  it('when fid is a number, then it is accepted and echoed as a string', async () => {
    const res = await check(onChain, { fid: 7, address: await holder(0n) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ fid: '7', hasAccess: false, message: expect.stringContaining('Access denied') });
  });

  it('when the balance changes, then the answer may be up to 30 s old (cached), per address', async () => {
    const address = await holder(0n);
    expect((await status(onChain, address)).body.hasAccess).toBe(false);
    await chain.write(token, 'mint', [address, 2_000_000n]);
    expect((await status(onChain, address)).body.hasAccess).toBe(false);
    expect((await status(onChain, await holder(2_000_000n))).body.hasAccess).toBe(true);
  });
});

describe('token gating: bad input and failures', () => {
  it('when the address is malformed or missing, then 400 VALIDATION_ERROR', async () => {
    for (const bad of ['0x123', 'abc', `0x${'g'.repeat(40)}`, `${'a'.repeat(42)}`, `0x${'a'.repeat(41)}`]) {
      const get = await status(onChain, bad);
      expect(get.status, bad).toBe(400);
      expect(get.body.code).toBe('VALIDATION_ERROR');
      expect((await check(onChain, { fid: '1', address: bad })).status, bad).toBe(400);
    }
    expect((await call(onChain.app, { method: 'GET', url: URL_ })).status).toBe(400);
    expect((await check(onChain, { address: await holder(0n) })).status).toBe(400);
    expect((await check(onChain, { fid: '', address: await holder(0n) })).status).toBe(400);
  });

  it('when the node refuses connections, then 502 UPSTREAM_UNAVAILABLE, never "no access"', async () => {
    const address = await holder(5_000_000n);
    for (const res of [await check(refused, { fid: '1', address }), await status(refused, address)]) {
      expect(res.status).toBe(502);
      expect(res.body.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(res.body).not.toHaveProperty('hasAccess');
    }
  });

  it('when the node hangs, then 502 within the configured timeout', async () => {
    const started = Date.now();
    const res = await status(hangs, await holder(0n));
    expect(res.status).toBe(502);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('when no gating token is configured, then 503 CHAIN_NOT_CONFIGURED', async () => {
    const res = await status(unconfigured, await holder(0n));
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('CHAIN_NOT_CONFIGURED');
  });
});

/** Social sign-in with an address reads the same on-chain gate (CONTRACT.md section 7, issue 11 item 3). */
describe('social sign-in gated on chain', async () => {
  const issuer = await startSocialIssuer();
  afterAll(() => issuer.close());
  const social = await startTestApp({ env: { ...gate, ...issuer.env, BASE_RPC_URL: chain.rpcUrl } });
  const verify = (address: string, sub: string) =>
    issuer.token({ sub }).then((fidToken) => call(social.app, { method: 'POST', url: '/api/auth/social/verify', payload: { fidToken, address } }));

  it('when the address holds too little of the gating token, then 403 with required and minBalance read from the chain, and no session', async () => {
    const res = await verify(await holder(1_000_000n), '9001');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ required: '1.5', minBalance: '1500000' });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('when the address holds enough, then the sign-in succeeds as token-gated', async () => {
    const res = await verify(await holder(2_000_000n), '9002');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, tokenGated: true });
  });
});
