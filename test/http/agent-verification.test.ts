import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { namehash, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { call, signUpAndIn, type SignedIn } from '../support/http-client.js';
import { startLocalChain } from '../support/chain/local-chain.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * GET/POST/DELETE /api/agents/:id/verify (spec "Verification"; CONTRACT.md sections 4, 7, 8)
 * against a real EVM: anvil with Base's chain id, the EAS and universal-resolver stand-ins
 * deployed from test/support/chain/contracts.json.
 */
const chain = await startLocalChain();
const eas = await chain.deploy('TestEAS');
const resolver = await chain.deploy('TestUniversalResolver');

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

const base = { RATE_LIMIT_AGENTS: '100000' };
const onChain = await startTestApp({
  env: { ...base, EAS_RPC_URL: chain.rpcUrl, EAS_CONTRACT_ADDRESS: eas.address, ENS_RPC_URL: chain.rpcUrl, ENS_UNIVERSAL_RESOLVER_ADDRESS: resolver.address },
});
const offChain = await startTestApp({ env: base });
const down = await startTestApp({
  env: {
    ...base,
    EAS_RPC_URL: `http://127.0.0.1:${refusedPort}`,
    ENS_RPC_URL: `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`,
    VERIFICATION_RPC_TIMEOUT_MS: '300',
  },
});

const uid = (): Hex => `0x${randomBytes(32).toString('hex')}`;

/** A signed-in user with one agent, inserted as the owner role would leave it after provisioning. */
async function agentOf(t: TestApp) {
  const user = await signUpAndIn(t.app);
  const { rows } = await t.infra.pools.owner.query(`insert into agents (user_id, name, model, status) values ($1, 'V', 'm', 'running') returning id`, [user.id]);
  return { user, agentId: rows[0].id as string };
}

const url = (agentId: string) => `/api/agents/${agentId}/verify`;
const verify = (t: TestApp, user: SignedIn, agentId: string, payload: object) => call(t.app, { method: 'POST', url: url(agentId), headers: user.headers, payload });
const read = (t: TestApp, user: SignedIn, agentId: string) => call(t.app, { method: 'GET', url: url(agentId), headers: { cookie: user.cookie } });
const unverify = (t: TestApp, user: SignedIn, agentId: string) => call(t.app, { method: 'DELETE', url: url(agentId), headers: user.headers });
const stored = async (t: TestApp, agentId: string) => (await t.infra.pools.owner.query(`select * from agent_verifications where agent_id = $1`, [agentId])).rows;

const UNVERIFIED = { verified: false, verificationType: null, attestationUid: null, verifierAddress: null, verifiedAt: null, metadata: null };
const message = (agentId: string) => `Verify agent ${agentId} on 127.0.0.1:3000`;

describe('eas verification on chain', () => {
  it('when the attestation exists, is live and was made to walletAddress, then the agent is verified with onchainChecked true and what was read', async () => {
    const { user, agentId } = await agentOf(onChain);
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const u = uid();
    await chain.write(eas, 'attest', [u, wallet, 0n]);
    const res = await verify(onChain, user, agentId, { verificationType: 'eas', attestationUid: u, walletAddress: wallet });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, verified: true, verificationType: 'eas', attestationUid: u, verifiedAt: expect.any(String) });
    const got = await read(onChain, user, agentId);
    expect(got.body).toEqual({
      verified: true,
      verificationType: 'eas',
      attestationUid: u,
      verifierAddress: wallet.toLowerCase(),
      verifiedAt: res.body.verifiedAt,
      metadata: expect.objectContaining({ onchainChecked: true, easContract: eas.address.toLowerCase(), recipient: wallet.toLowerCase(), attester: chain.client.account.address.toLowerCase(), revocable: true }),
    });
    const detail = await call(onChain.app, { method: 'GET', url: `/api/agents/${agentId}`, headers: { cookie: user.cookie } });
    expect(detail.body.agent).toMatchObject({ verified: true, verificationType: 'eas', attestationUid: u, verifiedAt: res.body.verifiedAt });
  });

  it('when the attestation was revoked, is unknown, or was made to another wallet, then 400 VERIFICATION_FAILED and nothing is recorded', async () => {
    const { user, agentId } = await agentOf(onChain);
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const revoked = uid();
    await chain.write(eas, 'attest', [revoked, wallet, 0n]);
    await chain.write(eas, 'revoke', [revoked]);
    const elsewhere = uid();
    await chain.write(eas, 'attest', [elsewhere, privateKeyToAccount(generatePrivateKey()).address, 0n]);
    const expired = uid();
    await chain.write(eas, 'attest', [expired, wallet, BigInt(Math.floor(Date.now() / 1000) - 60)]);
    for (const [attestationUid, reason] of [[revoked, 'revoked'], [uid(), 'unknown'], [elsewhere, 'recipient_mismatch'], [expired, 'expired']] as const) {
      const res = await verify(onChain, user, agentId, { verificationType: 'eas', attestationUid, walletAddress: wallet });
      expect({ status: res.status, code: res.body.code, reason: res.body.reason }).toEqual({ status: 400, code: 'VERIFICATION_FAILED', reason });
    }
    expect(await stored(onChain, agentId)).toEqual([]);
    expect((await read(onChain, user, agentId)).body).toEqual(UNVERIFIED);
  });

  it('when the RPC node refuses connections, then 502 UPSTREAM_UNAVAILABLE and nothing is recorded', async () => {
    const { user, agentId } = await agentOf(down);
    const res = await verify(down, user, agentId, { verificationType: 'eas', attestationUid: uid() });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 502, code: 'UPSTREAM_UNAVAILABLE' });
    expect(await stored(down, agentId)).toEqual([]);
    // the node's URL (where an RPC key would sit) reaches neither the client nor the log
    expect(JSON.stringify(res.body)).not.toContain(String(refusedPort));
    expect(down.logs.join('')).toContain('UpstreamUnavailableError');
    expect(down.logs.join('')).not.toContain(`127.0.0.1:${refusedPort}`);
  });

  it('when no EAS RPC is configured, then a well-formed uid is accepted on format with onchainChecked false', async () => {
    const { user, agentId } = await agentOf(offChain);
    const u = uid();
    const res = await verify(offChain, user, agentId, { verificationType: 'eas', attestationUid: u });
    expect(res.body).toMatchObject({ success: true, verified: true, verificationType: 'eas', attestationUid: u });
    expect((await read(offChain, user, agentId)).body).toMatchObject({ verified: true, verifierAddress: null, metadata: { onchainChecked: false } });
  });
});

describe('wallet-signature verification', () => {
  it('when walletAddress signed the exact message, then the agent is verified and the signer recorded', async () => {
    const { user, agentId } = await agentOf(offChain);
    const account = privateKeyToAccount(generatePrivateKey());
    const signature = await account.signMessage({ message: message(agentId) });
    const res = await verify(offChain, user, agentId, { verificationType: 'walletprovider', walletAddress: account.address, signature });
    expect(res.body).toEqual({ success: true, verified: true, verificationType: 'walletprovider', attestationUid: null, verifiedAt: expect.any(String) });
    expect((await read(offChain, user, agentId)).body).toMatchObject({ verifierAddress: account.address.toLowerCase(), metadata: { message: message(agentId) } });
  });

  it('when walletAddress is left out, then the signer is recovered from the signature and recorded', async () => {
    const { user, agentId } = await agentOf(offChain);
    const account = privateKeyToAccount(generatePrivateKey());
    const res = await verify(offChain, user, agentId, { verificationType: 'walletprovider', signature: await account.signMessage({ message: message(agentId) }) });
    expect(res.status).toBe(200);
    expect((await read(offChain, user, agentId)).body.verifierAddress).toBe(account.address.toLowerCase());
  });

  it('when another key signed, or the text names another agent, or the signature is garbage, then 400 and nothing is recorded', async () => {
    const { user, agentId } = await agentOf(offChain);
    const account = privateKeyToAccount(generatePrivateKey());
    const other = privateKeyToAccount(generatePrivateKey());
    for (const signature of [
      await other.signMessage({ message: message(agentId) }),
      await account.signMessage({ message: message('00000000-0000-4000-8000-000000000000') }),
      `0x${'12'.repeat(65)}`,
    ]) {
      const res = await verify(offChain, user, agentId, { verificationType: 'walletprovider', walletAddress: account.address, signature });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VERIFICATION_FAILED' });
    }
    expect(await stored(offChain, agentId)).toEqual([]);
  });

  it('when webauthn comes with its wallet, then it is checked as a wallet signature; without one, then 400', async () => {
    const { user, agentId } = await agentOf(offChain);
    const account = privateKeyToAccount(generatePrivateKey());
    const signature = await account.signMessage({ message: message(agentId) });
    const bare = await verify(offChain, user, agentId, { verificationType: 'webauthn', signature });
    expect({ status: bare.status, code: bare.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    expect(await stored(offChain, agentId)).toEqual([]);
    const res = await verify(offChain, user, agentId, { verificationType: 'webauthn', walletAddress: account.address, signature });
    expect(res.body).toMatchObject({ verified: true, verificationType: 'webauthn' });
  });
});

describe('ens verification', () => {
  it('when the name resolves to the signing wallet, then verified with ensChecked true; to another or to none, then 400', async () => {
    const { user, agentId } = await agentOf(onChain);
    const account = privateKeyToAccount(generatePrivateKey());
    const signature = await account.signMessage({ message: message(agentId) });
    const name = `agent-${randomBytes(4).toString('hex')}.eth`;
    const taken = `taken-${randomBytes(4).toString('hex')}.eth`;
    await chain.write(resolver, 'setAddr', [namehash(name), account.address]);
    await chain.write(resolver, 'setAddr', [namehash(taken), privateKeyToAccount(generatePrivateKey()).address]);
    for (const ensName of [taken, `nobody-${randomBytes(4).toString('hex')}.eth`]) {
      const res = await verify(onChain, user, agentId, { verificationType: 'ens', ensName, walletAddress: account.address, signature });
      expect({ status: res.status, code: res.body.code, reason: res.body.reason }).toEqual({ status: 400, code: 'VERIFICATION_FAILED', reason: 'ens_mismatch' });
    }
    expect(await stored(onChain, agentId)).toEqual([]);
    const res = await verify(onChain, user, agentId, { verificationType: 'ens', ensName: name, walletAddress: account.address, signature });
    expect(res.body).toMatchObject({ success: true, verified: true, verificationType: 'ens' });
    expect((await read(onChain, user, agentId)).body).toMatchObject({ verifierAddress: account.address.toLowerCase(), metadata: { ensName: name, ensChecked: true } });
  });

  it('when no ENS RPC is configured, then the name is recorded unchecked; when the ENS node hangs, then 502 after the timeout and nothing is recorded', async () => {
    const off = await agentOf(offChain);
    const account = privateKeyToAccount(generatePrivateKey());
    const ok = await verify(offChain, off.user, off.agentId, { verificationType: 'ens', ensName: 'alice.eth', signature: await account.signMessage({ message: message(off.agentId) }) });
    expect(ok.status).toBe(200);
    expect((await read(offChain, off.user, off.agentId)).body.metadata).toEqual({ message: message(off.agentId), ensName: 'alice.eth', ensChecked: false });

    const hanging = await agentOf(down);
    const res = await verify(down, hanging.user, hanging.agentId, { verificationType: 'ens', ensName: 'alice.eth', signature: await account.signMessage({ message: message(hanging.agentId) }) });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 502, code: 'UPSTREAM_UNAVAILABLE' });
    expect(await stored(down, hanging.agentId)).toEqual([]);
  });
});

describe('the verify routes at the edge', () => {
  it('when the type is unknown or a required field is missing or malformed, then 400 VALIDATION_ERROR and nothing is recorded', async () => {
    const { user, agentId } = await agentOf(offChain);
    for (const payload of [
      {},
      { verificationType: 'github' },
      { verificationType: 'eas' },
      { verificationType: 'eas', attestationUid: '0x1234' },
      { verificationType: 'eas', attestationUid: uid(), walletAddress: 'alice' },
      { verificationType: 'walletprovider' },
      { verificationType: 'ens', signature: `0x${'11'.repeat(65)}` },
      { verificationType: 'walletprovider', signature: 42 },
    ]) {
      const res = await verify(offChain, user, agentId, payload);
      expect({ status: res.status, code: res.body.code }, JSON.stringify(payload)).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    }
    expect(await stored(offChain, agentId)).toEqual([]);
  });

  it("when another user calls any verb on someone's agent, or on an id that is no agent, then 404 and the record is untouched", async () => {
    const { user, agentId } = await agentOf(offChain);
    const u = uid();
    await verify(offChain, user, agentId, { verificationType: 'eas', attestationUid: u });
    const before = await stored(offChain, agentId);
    const stranger = await signUpAndIn(offChain.app);
    for (const id of [agentId, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      expect((await read(offChain, stranger, id)).status).toBe(404);
      expect((await verify(offChain, stranger, id, { verificationType: 'eas', attestationUid: uid() })).status).toBe(404);
      expect((await unverify(offChain, stranger, id)).status).toBe(404);
    }
    expect(await stored(offChain, agentId)).toEqual(before);
    expect(before).toHaveLength(1);
  });

  it('when two verifications of one agent race, then both answer 200 and exactly one record stands, one of theirs', async () => {
    const { user, agentId } = await agentOf(offChain);
    const [a, b] = [uid(), uid()];
    const results = await Promise.all([a, b].map((attestationUid) => verify(offChain, user, agentId, { verificationType: 'eas', attestationUid })));
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const rows = await stored(offChain, agentId);
    expect(rows).toHaveLength(1);
    expect([a, b]).toContain(rows[0].attestation_uid);
  });

  it('when no credentials are sent, then 401 on all three verbs', async () => {
    const { agentId } = await agentOf(offChain);
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await call(offChain.app, { method, url: url(agentId), ...(method === 'POST' ? { payload: { verificationType: 'eas', attestationUid: uid() } } : {}) });
      expect(res.status, method).toBe(401);
    }
  });

  it('when a verified agent is verified again, then the record is replaced; when DELETE follows, then GET answers verified false, and a second DELETE still succeeds', async () => {
    const { user, agentId } = await agentOf(offChain);
    await verify(offChain, user, agentId, { verificationType: 'eas', attestationUid: uid() });
    const account = privateKeyToAccount(generatePrivateKey());
    await verify(offChain, user, agentId, { verificationType: 'walletprovider', signature: await account.signMessage({ message: message(agentId) }) });
    expect((await read(offChain, user, agentId)).body).toMatchObject({ verified: true, verificationType: 'walletprovider', attestationUid: null });
    expect(await stored(offChain, agentId)).toHaveLength(1);
    for (let i = 0; i < 2; i++) {
      const res = await unverify(offChain, user, agentId);
      expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { success: true } });
    }
    expect((await read(offChain, user, agentId)).body).toEqual(UNVERIFIED);
  });
});
