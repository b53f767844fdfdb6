import net from 'node:net';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { SECRET_BOX, type SecretBox } from '../../src/application/ports/secret-box.port.js';
import { call, signUpAndIn, type SignedIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/** A port nothing listens on: the RPC node is down. */
const closedPort = await new Promise<number>((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address() as net.AddressInfo;
    s.close(() => resolve(port));
  });
});

// no hosted provider, no chain
const plain = await startTestApp();
// hosted provider configured, the chain's node unreachable
const hosted = await startTestApp({ env: { HOSTED_WALLET_API_KEY: 'hw-key', HOSTED_WALLET_PROJECT_ID: 'proj-123', BASE_RPC_URL: `http://127.0.0.1:${closedPort}`, WALLET_RPC_TIMEOUT_MS: '2000' } });
const app = plain.app;

const get = (a: typeof app, url: string, user?: SignedIn) => call(a, { method: 'GET', url, ...(user ? { headers: { cookie: user.cookie } } : {}) });
const post = (a: typeof app, url: string, payload: unknown, user?: SignedIn) => call(a, { method: 'POST', url, payload: payload as object, ...(user ? { headers: user.headers } : {}) });
const rows = async (owner: typeof plain.infra.pools.owner, userId: string) =>
  (await owner.query(`select address, provider, source, label, key_id, sealed_key from wallets where user_id = $1`, [userId])).rows;
const allWallets = async (owner: typeof plain.infra.pools.owner) => Number((await owner.query(`select count(*) from wallets`)).rows[0].count);

/** The private key sealed in the user's row, opened with the app's own secret box. */
async function sealedKeyOf(t: typeof plain, userId: string): Promise<string> {
  const [row] = await rows(t.infra.pools.owner, userId);
  return t.container.resolve<SecretBox>(SECRET_BOX).open({ keyId: row.key_id, ciphertext: row.sealed_key }, `wallet:${userId}:${row.address}`);
}

describe('GET and POST /api/wallet (no hosted provider)', () => {
  it('when there are no credentials, then 401 on both', async () => {
    expect((await get(app, '/api/wallet')).status).toBe(401);
    expect((await post(app, '/api/wallet', { action: 'create' })).status).toBe(401);
  });

  it('when the user has no wallet, then the record says so: address null, hasWallet false, a message', async () => {
    const user = await signUpAndIn(app);
    const res = await get(app, '/api/wallet', user);
    expect(res).toMatchObject({ status: 200, body: { address: null, hasWallet: false, network: 'base', message: expect.any(String) } });
  });

  it('when a wallet is created, then its address is answered, its key is sealed (and is the key of that address), and the record shows it', async () => {
    const user = await signUpAndIn(app);
    const res = await post(app, '/api/wallet', { action: 'create' }, user);
    expect(res).toMatchObject({ status: 200, body: { address: expect.stringMatching(/^0x[0-9a-f]{40}$/), network: 'base', message: expect.any(String) } });
    expect(Object.keys(res.body).sort()).toEqual(['address', 'message', 'network']);
    const [row] = await rows(plain.infra.pools.owner, user.id);
    expect(row).toMatchObject({ address: res.body.address, provider: 'local', source: 'generated' });
    const key = await sealedKeyOf(plain, user.id);
    expect(privateKeyToAccount(key as `0x${string}`).address.toLowerCase()).toBe(res.body.address);
    expect(row.sealed_key.toString('latin1')).not.toContain(key.slice(2));

    const record = await get(app, '/api/wallet', user);
    expect(record.body).toMatchObject({ address: res.body.address, hasWallet: true, network: 'base', createdAt: expect.any(String) });
    expect(JSON.stringify(record.body)).not.toContain(key.slice(2));
  });

  it('when a second wallet is created, then 400 WALLET_EXISTS and the first is untouched', async () => {
    const user = await signUpAndIn(app);
    const first = await post(app, '/api/wallet', { action: 'create' }, user);
    const before = await rows(plain.infra.pools.owner, user.id);
    const again = await post(app, '/api/wallet', { action: 'create' }, user);
    expect(again).toMatchObject({ status: 400, body: { code: 'WALLET_EXISTS' } });
    expect(await rows(plain.infra.pools.owner, user.id)).toEqual(before);
    expect(before[0].address).toBe(first.body.address);
    // the other creating routes are refused the same way
    expect((await post(app, '/api/wallet/hosted', {}, user)).body.code).toBe('WALLET_EXISTS');
  });

  it('when two creates race, then exactly one wallet is made and the other answers 400 WALLET_EXISTS', async () => {
    const user = await signUpAndIn(app);
    const results = await Promise.all([0, 1, 2].map(() => post(app, '/api/wallet', { action: 'create' }, user)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    const rowsNow = await rows(plain.infra.pools.owner, user.id);
    expect(rowsNow).toHaveLength(1);
    expect(rowsNow[0].address).toBe(results.find((r) => r.status === 200)!.body.address);
  });

  it('when get_seed is asked, then the metadata and a warning only, never key material; 404 without a wallet', async () => {
    const none = await signUpAndIn(app);
    expect(await post(app, '/api/wallet', { action: 'get_seed' }, none)).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });

    const user = await signUpAndIn(app);
    const created = await post(app, '/api/wallet', { action: 'create' }, user);
    const res = await post(app, '/api/wallet', { action: 'get_seed' }, user);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['address', 'createdAt', 'network', 'warning']);
    expect(res.body).toMatchObject({ address: created.body.address, network: 'base' });
    const key = await sealedKeyOf(plain, user.id);
    const raw = JSON.stringify(res.body).toLowerCase();
    expect(raw).not.toContain(key.slice(2).toLowerCase());
    expect(raw).not.toMatch(/[0-9a-f]{64}/);
  });

  it('when export_seed is asked, then 403 always, with or without a wallet', async () => {
    const user = await signUpAndIn(app);
    expect(await post(app, '/api/wallet', { action: 'export_seed' }, user)).toMatchObject({ status: 403, body: { code: 'SEED_EXPORT_FORBIDDEN' } });
    await post(app, '/api/wallet', { action: 'create' }, user);
    const res = await post(app, '/api/wallet', { action: 'export_seed' }, user);
    expect(res).toMatchObject({ status: 403, body: { code: 'SEED_EXPORT_FORBIDDEN' } });
    expect(JSON.stringify(res.body)).not.toContain((await sealedKeyOf(plain, user.id)).slice(2));
  });

  it('when the action is missing, unknown or of the wrong type, then 400 VALIDATION_ERROR and no wallet is made', async () => {
    const user = await signUpAndIn(app);
    for (const body of [{}, { action: 'burn' }, { action: 1 }, { action: 'CREATE' }]) {
      const res = await post(app, '/api/wallet', body, user);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'VALIDATION_ERROR' });
    }
    expect(await rows(plain.infra.pools.owner, user.id)).toEqual([]);
  });

  it("when another user has a wallet, then it is invisible: the record, the address, get_seed and the table as app_user show only one's own", async () => {
    const alice = await signUpAndIn(app);
    const bob = await signUpAndIn(app);
    await post(app, '/api/wallet', { action: 'create' }, alice);
    expect((await get(app, '/api/wallet', bob)).body).toMatchObject({ address: null, hasWallet: false });
    expect((await get(app, '/api/wallet/address', bob)).body).toEqual({ authenticated: true, address: null });
    expect((await post(app, '/api/wallet', { action: 'get_seed' }, bob)).status).toBe(404);
    const client = await plain.infra.pools.owner.connect();
    try {
      await client.query('begin');
      await client.query(`set local role app_user`);
      await client.query(`select set_config('app.user_id', $1, true)`, [bob.id]);
      expect((await client.query('select * from wallets')).rows).toEqual([]);
      await client.query(`select set_config('app.user_id', $1, true)`, [alice.id]);
      expect((await client.query('select user_id from wallets')).rows).toEqual([{ user_id: alice.id }]);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });

  it('when the account is deleted, then its wallet and sealed key go with it', async () => {
    const user = await signUpAndIn(app);
    await post(app, '/api/wallet', { action: 'create' }, user);
    expect(await call(app, { method: 'DELETE', url: '/api/settings', headers: user.headers })).toMatchObject({ status: 200 });
    expect(await rows(plain.infra.pools.owner, user.id)).toEqual([]);
  });

  it('when no chain is configured, then the balance is null with a balanceError saying so, never a zero', async () => {
    const user = await signUpAndIn(app);
    await post(app, '/api/wallet', { action: 'create' }, user);
    const res = await get(app, '/api/wallet', user);
    expect(res.body).toMatchObject({ hasWallet: true, balance: null, nativeBalance: null, balanceError: expect.stringContaining('BASE_RPC_URL') });
  });
});

describe('GET /api/wallet/address, POST /api/wallet/create, /api/wallet/hosted', () => {
  it('when anonymous and no provider is configured, then address says sign-in is needed with error and setup; /create answers 500 with setup', async () => {
    expect((await get(app, '/api/wallet/address')).body).toEqual({ authenticated: false, needsAuth: true, error: expect.any(String), setup: expect.stringContaining('HOSTED_WALLET_API_KEY') });
    const user = await signUpAndIn(app);
    const res = await post(app, '/api/wallet/create', { email: user.email }, user);
    expect(res).toMatchObject({ status: 500, body: { code: 'HOSTED_WALLET_NOT_CONFIGURED', setup: expect.any(String) } });
    expect(await rows(plain.infra.pools.owner, user.id)).toEqual([]);
  });

  it('when GET /api/wallet/hosted is called by anyone, then the provider status', async () => {
    expect(await get(app, '/api/wallet/hosted')).toMatchObject({ status: 200, body: { status: 'ok', type: 'evm_wallet', supportedChains: ['base', 'base-sepolia'] } });
  });

  it('when a valid private key is imported, then the wallet has its address, and neither the answer nor the log holds any trace of the key', async () => {
    const user = await signUpAndIn(app);
    const key = generatePrivateKey();
    const res = await post(app, '/api/wallet/hosted', { privateKey: key }, user);
    expect(res).toEqual(expect.objectContaining({ status: 200, body: { success: true, address: privateKeyToAccount(key).address.toLowerCase(), network: 'base' } }));
    expect((await rows(plain.infra.pools.owner, user.id))[0]).toMatchObject({ source: 'imported' });
    expect(await sealedKeyOf(plain, user.id)).toBe(key);
    const logs = plain.logs.join('\n').toLowerCase();
    expect(logs).not.toContain(key.slice(2).toLowerCase());
    // the same key again, by another account: the address is taken, refused without echo
    const other = await signUpAndIn(app);
    const again = await post(app, '/api/wallet/hosted', { privateKey: key }, other);
    expect(again).toMatchObject({ status: 400, body: { code: 'WALLET_EXISTS' } });
    expect(JSON.stringify(again.body)).not.toContain(key.slice(2));
  });

  it('when the private key is not 32 bytes of hex or not a valid secp256k1 key, then 400, not echoed, not logged, nothing stored', async () => {
    const user = await signUpAndIn(app);
    const hex = generatePrivateKey().slice(2);
    const bad = [
      `0x${hex.slice(0, 62)}`, // 31 bytes
      `0x${hex}ab`, // 33 bytes
      hex, // no 0x
      `0x${hex.slice(0, 63)}g`, // not hex
      `0x${'0'.repeat(64)}`, // zero
      '0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141', // the curve order itself
      `0x${'f'.repeat(64)}`, // beyond the order
    ];
    const before = await allWallets(plain.infra.pools.owner);
    for (const privateKey of bad) {
      const res = await post(app, '/api/wallet/hosted', { privateKey }, user);
      expect({ privateKey, status: res.status, code: res.body.code }).toEqual({ privateKey, status: 400, code: 'INVALID_PRIVATE_KEY' });
      expect(JSON.stringify(res.body)).not.toContain(privateKey.replace(/^0x/, '').slice(0, 40));
    }
    expect((await post(app, '/api/wallet/hosted', { privateKey: 42 }, user)).body.code).toBe('VALIDATION_ERROR');
    expect(await allWallets(plain.infra.pools.owner)).toBe(before);
    const logs = plain.logs.join('\n');
    expect(logs).not.toContain(hex.slice(0, 40));
  });

  it('when POST /api/wallet/hosted or /create is called without credentials, then 401 and nothing is created; with a session and no key, a key is generated', async () => {
    const before = await allWallets(plain.infra.pools.owner);
    expect(await post(app, '/api/wallet/hosted', { privateKey: generatePrivateKey() })).toMatchObject({ status: 401, body: { code: 'AUTH_REQUIRED' } });
    expect(await allWallets(plain.infra.pools.owner)).toBe(before);
    const user = await signUpAndIn(app);
    const res = await post(app, '/api/wallet/hosted', {}, user);
    expect(res.body).toEqual({ success: true, address: expect.stringMatching(/^0x[0-9a-f]{40}$/), network: 'base' });
    expect((await rows(plain.infra.pools.owner, user.id))[0]).toMatchObject({ source: 'generated' });
  });
});

describe('with a hosted provider configured and the chain node down', () => {
  const h = hosted.app;

  it('when GET /api/wallet is anonymous, then the provider description; signed in, also the caller\'s wallet', async () => {
    const res = await get(h, '/api/wallet');
    expect(res).toMatchObject({ status: 200, body: { agenticWallet: { status: 'configured', projectId: 'proj-123', features: expect.arrayContaining(['create_wallet']) }, instructions: expect.any(String) } });
    expect(Object.keys(res.body).sort()).toEqual(['agenticWallet', 'instructions']);
    expect(JSON.stringify(res.body)).not.toContain('hw-key');
    const user = await signUpAndIn(h);
    expect((await get(h, '/api/wallet', user)).body.wallet).toMatchObject({ address: null, hasWallet: false });
  });

  it('when the RPC node is unreachable, then the wallet record has balance null and a balanceError, never a made-up zero', async () => {
    const user = await signUpAndIn(h);
    await post(h, '/api/wallet', { action: 'create' }, user);
    const res = await get(h, '/api/wallet', user);
    expect(res.status).toBe(200);
    expect(res.body.wallet).toMatchObject({ hasWallet: true, balance: null, nativeBalance: null, balanceError: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toContain(String(closedPort));
  });

  it('when POST /api/wallet/create is called, then the caller gets a wallet labelled with the e-mail; a missing e-mail is 400 and anonymous 401', async () => {
    const user = await signUpAndIn(h);
    expect(await post(h, '/api/wallet/create', {}, user)).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(await post(h, '/api/wallet/create', { email: 'x@example.test' })).toMatchObject({ status: 401, body: { code: 'AUTH_REQUIRED' } });
    expect(await rows(hosted.infra.pools.owner, user.id)).toEqual([]);
    const res = await post(h, '/api/wallet/create', { email: user.email }, user);
    expect(res).toMatchObject({ status: 200, body: { success: true, walletAddress: expect.stringMatching(/^0x[0-9a-f]{40}$/), walletId: expect.any(String), networks: ['base'] } });
    expect((await rows(hosted.infra.pools.owner, user.id))[0]).toMatchObject({ address: res.body.walletAddress, label: user.email });
    expect((await get(h, '/api/wallet/address', user)).body).toEqual({ authenticated: true, address: res.body.walletAddress });
    expect((await get(h, '/api/wallet/address')).body).toEqual({ authenticated: false, needsAuth: true, message: expect.any(String) });
  });
});
