import net from 'node:net';
import { encodeFunctionData, keccak256, toHex, serializeErc6492Signature, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { afterAll, describe, expect, it } from 'vitest';
import { call, signUpAndIn } from '../support/http-client.js';
import { startLocalChain } from '../support/chain/local-chain.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * GET /api/auth/nonce and POST /api/auth/callback/wallet (spec "Accounts and sign-in"; CONTRACT.md
 * section 4) against a real EVM: anvil with Base's chain id, a minimal ERC-1271 wallet and its
 * CREATE2 factory from test/support/chain/contracts.json, used deployed and undeployed (ERC-6492).
 */
const chain = await startLocalChain();
const factory = await chain.deploy('TestSmartWalletFactory');

/** A port that accepts connections and never answers: an RPC node that hangs. */
const hung = new Set<net.Socket>();
const silent = net.createServer((s) => void hung.add(s)).listen(0, '127.0.0.1');
await new Promise((r) => silent.once('listening', r));
afterAll(() => new Promise((r) => (silent.close(r), hung.forEach((s) => s.destroy()))));

const onChain = await startTestApp({ env: { BASE_RPC_URL: chain.rpcUrl } });
const noNode = await startTestApp();
/** A host that takes e-mails: `wallet.localhost` passes the e-mail format, `wallet.127.0.0.1` does not. */
const named = await startTestApp({ env: { APP_URL: 'http://localhost:3000' } });
const hungNode = await startTestApp({ env: { BASE_RPC_URL: `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`, VERIFICATION_RPC_TIMEOUT_MS: '300' } });

const DOMAIN = '127.0.0.1:3000';
const APP = 'http://127.0.0.1:3000/';

async function nonceFrom(t: TestApp): Promise<string> {
  const res = await call(t.app, { method: 'GET', url: '/api/auth/nonce' });
  expect(res.status).toBe(200);
  return res.body.nonce;
}

function siwe(address: Address, nonce: string, over: Partial<Parameters<typeof createSiweMessage>[0]> = {}): string {
  return createSiweMessage({ domain: DOMAIN, address, uri: APP, version: '1', chainId: 8453, nonce, issuedAt: new Date(), statement: 'Sign in to agent-host', ...over });
}

const post = (t: TestApp, payload: object) => call(t.app, { method: 'POST', url: '/api/auth/callback/wallet', payload });

/** Who the session cookie of a sign-in answer belongs to (null: no session). */
async function sessionUser(t: TestApp, res: Awaited<ReturnType<typeof post>>) {
  const session = res.cookies.find((c) => c.name === 'session');
  if (!session) return null;
  const me = await call(t.app, { method: 'GET', url: '/api/auth/session', headers: { cookie: `session=${session.value}` } });
  return me.body.user as { id: string; email: string } | null;
}

async function signInAs(t: TestApp, account: PrivateKeyAccount, over: Partial<Parameters<typeof createSiweMessage>[0]> = {}) {
  const message = siwe(account.address, await nonceFrom(t), over);
  return post(t, { message, signature: await account.signMessage({ message }) });
}

/** A counterfactual smart wallet of `owner`: its address, and the factory call that would deploy it. */
async function smartWallet(owner: PrivateKeyAccount) {
  const salt = keccak256(toHex(owner.address));
  const address = (await chain.client.readContract({ address: factory.address, abi: factory.abi, functionName: 'addressOf', args: [owner.address, salt] })) as Address;
  const factoryData = encodeFunctionData({ abi: factory.abi, functionName: 'deploy', args: [owner.address, salt] });
  return { address, factoryData, deploy: () => chain.write(factory, 'deploy', [owner.address, salt]) };
}

const walletsOf = async (t: TestApp, address: string) =>
  (await t.infra.pools.owner.query(`select w.user_id, u.email from wallet_identities w join users u on u.id = w.user_id where w.address = $1`, [address.toLowerCase()])).rows;

/** A user row holding `email` as a password registration stores it (verified or not); its id. */
async function rowWithEmail(t: TestApp, email: string, verified: boolean): Promise<string> {
  const { rows } = await t.infra.pools.owner.query(
    `insert into users (email, name, password_hash, referral_code, email_verified_at) values ($1, 'squatter', 'x', upper(substr(md5(random()::text), 1, 10)), case when $2 then now() end) returning id`,
    [email, verified],
  );
  return rows[0].id as string;
}

describe('GET /api/auth/nonce', () => {
  it('when asked twice, then two different alphanumeric nonces are stored hashed, valid 10 minutes', async () => {
    const a = await nonceFrom(onChain);
    const b = await nonceFrom(onChain);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(b).not.toBe(a);
    const { rows } = await onChain.infra.pools.owner.query(`select nonce_hash, extract(epoch from expires_at - created_at)::int as ttl from wallet_nonces where nonce_hash = sha256($1::bytea)`, [Buffer.from(a)]);
    expect(rows).toHaveLength(1);
    expect(rows[0].ttl).toBeGreaterThanOrEqual(599);
    expect(rows[0].ttl).toBeLessThanOrEqual(600);
  });
});

describe('POST /api/auth/callback/wallet: accounts', () => {
  it('when an EOA signs in for the first time, then a user with the wallet-derived e-mail is created, the session is set and the browser is sent to APP_URL', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const res = await signInAs(onChain, account);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(APP);
    const email = `${account.address.toLowerCase()}@wallet.127.0.0.1`;
    expect(res.body).toEqual({ user: { id: expect.any(String), email, name: account.address.toLowerCase() }, url: APP });
    expect(res.cookies.find((c) => c.name === 'csrf')).toBeDefined();
    expect(await sessionUser(onChain, res)).toMatchObject({ id: res.body.user.id, email });
    expect(await walletsOf(onChain, account.address)).toEqual([{ user_id: res.body.user.id, email }]);
    const events = await onChain.infra.pools.owner.query(`select count(*)::int as n from outbox where topic = 'user.created' and user_id = $1`, [res.body.user.id]);
    expect(events.rows[0].n).toBe(1);
  });

  it('when the same wallet signs in again, then it is the same account, not a second one', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const first = await signInAs(onChain, account);
    const again = await signInAs(onChain, account);
    expect(again.status).toBe(303);
    expect(again.body.user.id).toBe(first.body.user.id);
    const users = await onChain.infra.pools.owner.query(`select count(*)::int as n from users where email = $1`, [first.body.user.email]);
    expect(users.rows[0].n).toBe(1);
  });

  it('when one new wallet signs in twice at the same moment, then both get the same single account', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const [a, b] = await Promise.all([signInAs(onChain, account), signInAs(onChain, account)]);
    expect([a.status, b.status]).toEqual([303, 303]);
    expect(a.body.user.id).toBe(b.body.user.id);
    expect(await walletsOf(onChain, account.address)).toHaveLength(1);
  });

  it('when a callbackUrl on this site is given, then the redirect goes there; another origin is a 400 and the nonce still works', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const nonce = await nonceFrom(onChain);
    const message = siwe(account.address, nonce);
    const signature = await account.signMessage({ message });
    const foreign = await post(onChain, { message, signature, callbackUrl: 'https://evil.example/steal' });
    expect(foreign.status).toBe(400);
    expect(foreign.cookies.find((c) => c.name === 'session')).toBeUndefined();
    const res = await post(onChain, { message, signature, callbackUrl: '/dashboard?tab=agents' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('http://127.0.0.1:3000/dashboard?tab=agents');
  });

  it('when an account with a verified wallet-derived e-mail exists, then the wallet is linked to it', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const email = `${owner.address.toLowerCase()}@wallet.127.0.0.1`;
    const existing = await rowWithEmail(onChain, email, true);
    const linked = await signInAs(onChain, owner);
    expect(linked.status).toBe(303);
    expect(linked.body.user.id).toBe(existing);
    expect(await walletsOf(onChain, owner.address)).toEqual([{ user_id: existing, email }]);
  });

  it('when an unverified account holds the wallet-derived e-mail (a squatter\'s row from before the domain was reserved), then the wallet\'s owner signs in to an account of their own, never the squatter\'s, and keeps it', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const email = `${owner.address.toLowerCase()}@wallet.127.0.0.1`;
    const squatter = await rowWithEmail(onChain, email, false);
    const first = await signInAs(onChain, owner);
    expect(first.status).toBe(303);
    expect(first.body.user.id).not.toBe(squatter);
    expect(first.body.user.email).toMatch(new RegExp(`^${owner.address.toLowerCase()}\\+[0-9a-f]{8}@wallet\\.127\\.0\\.0\\.1$`));
    expect(await sessionUser(onChain, first)).toMatchObject({ id: first.body.user.id });
    expect(await walletsOf(onChain, owner.address)).toEqual([{ user_id: first.body.user.id, email: first.body.user.email }]);
    const again = await signInAs(onChain, owner);
    expect(again.body.user.id).toBe(first.body.user.id);
    // the squatter's row is left as it was: it gained no wallet and no session
    const { rows } = await onChain.infra.pools.owner.query(`select email, (select count(*)::int from sessions where user_id = $1) as sessions from users where id = $1`, [squatter]);
    expect(rows).toEqual([{ email, sessions: 0 }]);
  });

  it('when a squatter holds the derived e-mail and the wallet signs in twice at the same moment, then both get the same single account', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    await rowWithEmail(onChain, `${owner.address.toLowerCase()}@wallet.127.0.0.1`, false);
    const [a, b] = await Promise.all([signInAs(onChain, owner), signInAs(onChain, owner)]);
    expect([a.status, b.status]).toEqual([303, 303]);
    expect(a.body.user.id).toBe(b.body.user.id);
    expect(await walletsOf(onChain, owner.address)).toHaveLength(1);
    const made = await onChain.infra.pools.owner.query(`select count(*)::int as n from users where email like $1`, [`${owner.address.toLowerCase()}+%`]);
    expect(made.rows[0].n).toBe(1);
  });
});

/**
 * The reserved wallet domain on a service whose host takes e-mails (`wallet.localhost`; an IP host's
 * `wallet.127.0.0.1` is refused by the e-mail format already): the squatting attempt itself.
 */
describe('the wallet e-mail domain is reserved', () => {
  const signInNamed = async (account: PrivateKeyAccount) => {
    const message = createSiweMessage({ domain: 'localhost:3000', address: account.address, uri: 'http://localhost:3000/', version: '1', chainId: 8453, nonce: await nonceFrom(named), issuedAt: new Date() });
    return post(named, { message, signature: await account.signMessage({ message }) });
  };
  const users = async () => (await named.infra.pools.owner.query(`select count(*)::int as n from users`)).rows[0].n as number;

  it('when someone registers, or changes their e-mail to, a wallet\'s derived e-mail (any case), then 400 VALIDATION_ERROR and nothing changes; the wallet\'s owner then signs in with that e-mail', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const derived = `${owner.address.toLowerCase()}@wallet.localhost`;
    const before = await users();
    const registered = await call(named.app, { method: 'POST', url: '/api/register', payload: { email: owner.address + '@WALLET.localhost', password: 'long enough pw' } });
    expect(registered.status).toBe(400);
    expect(registered.body.code).toBe('VALIDATION_ERROR');
    expect(registered.body.error).toMatch(/wallet\.localhost.*reserved/);
    expect(await users()).toBe(before);

    const squatter = await signUpAndIn(named.app);
    const changed = await call(named.app, { method: 'POST', url: '/api/settings', headers: squatter.headers, payload: { email: derived } });
    expect(changed.status).toBe(400);
    expect(changed.body.code).toBe('VALIDATION_ERROR');
    const kept = await named.infra.pools.owner.query(`select email from users where id = $1`, [squatter.id]);
    expect(kept.rows[0].email).toBe(squatter.email);

    const res = await signInNamed(owner);
    expect(res.status).toBe(303);
    expect(res.body.user.email).toBe(derived);
  });
});

describe('POST /api/auth/callback/wallet: smart wallets', () => {
  it('when a deployed ERC-1271 wallet signs (its owner\'s key), then it signs in as the wallet address', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const wallet = await smartWallet(owner);
    await wallet.deploy();
    const message = siwe(wallet.address, await nonceFrom(onChain));
    const res = await post(onChain, { message, signature: await owner.signMessage({ message }) });
    expect(res.status).toBe(303);
    expect(res.body.user.email).toBe(`${wallet.address.toLowerCase()}@wallet.127.0.0.1`);
    expect(await sessionUser(onChain, res)).toMatchObject({ id: res.body.user.id });
  });

  it('when a not-yet-deployed wallet sends an ERC-6492 wrapped signature, then it signs in, and the wallet is still not deployed', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const wallet = await smartWallet(owner);
    const message = siwe(wallet.address, await nonceFrom(onChain));
    const signature = serializeErc6492Signature({ address: factory.address, data: wallet.factoryData, signature: await owner.signMessage({ message }) });
    const res = await post(onChain, { message, signature });
    expect(res.status).toBe(303);
    expect(res.body.user.email).toBe(`${wallet.address.toLowerCase()}@wallet.127.0.0.1`);
    expect(await chain.client.getCode({ address: wallet.address })).toBeUndefined();
  });

  it('when another key signs for a smart wallet (deployed or not), then 401 and no session', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const thief = privateKeyToAccount(generatePrivateKey());
    const wallet = await smartWallet(owner);
    const m1 = siwe(wallet.address, await nonceFrom(onChain));
    const undeployed = await post(onChain, { message: m1, signature: serializeErc6492Signature({ address: factory.address, data: wallet.factoryData, signature: await thief.signMessage({ message: m1 }) }) });
    expect(undeployed.status).toBe(401);
    await wallet.deploy();
    const m2 = siwe(wallet.address, await nonceFrom(onChain));
    const deployed = await post(onChain, { message: m2, signature: await thief.signMessage({ message: m2 }) });
    expect(deployed.status).toBe(401);
    expect(deployed.cookies.find((c) => c.name === 'session')).toBeUndefined();
    expect(await walletsOf(onChain, wallet.address)).toEqual([]);
  });
});

describe('POST /api/auth/callback/wallet: refusals (401, no session)', () => {
  const refusedWith = async (res: Awaited<ReturnType<typeof post>>, reason: string) => {
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'WALLET_SIGN_IN_REJECTED', reason });
    expect(res.cookies.find((c) => c.name === 'session')).toBeUndefined();
  };

  it('when a signed message is replayed, then the second use is refused', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const message = siwe(account.address, await nonceFrom(onChain));
    const signature = await account.signMessage({ message });
    expect((await post(onChain, { message, signature })).status).toBe(303);
    await refusedWith(await post(onChain, { message, signature }), 'nonce');
  });

  it('when the nonce was never issued, then it is refused', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const message = siwe(account.address, 'abcdef0123456789abcdef0123456789');
    await refusedWith(await post(onChain, { message, signature: await account.signMessage({ message }) }), 'nonce');
  });

  it('when the nonce is older than 10 minutes, then it is refused', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const nonce = await nonceFrom(onChain);
    await onChain.infra.pools.owner.query(`update wallet_nonces set expires_at = now() - interval '1 second' where nonce_hash = sha256($1::bytea)`, [Buffer.from(nonce)]);
    const message = siwe(account.address, nonce);
    await refusedWith(await post(onChain, { message, signature: await account.signMessage({ message }) }), 'nonce');
  });

  it('when the message\'s own expiration time has passed, then it is refused', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    await refusedWith(await signInAs(onChain, account, { issuedAt: new Date(Date.now() - 120_000), expirationTime: new Date(Date.now() - 60_000) }), 'expired');
  });

  it('when the message is for another domain (or another port), then it is refused, and its nonce is spent', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    await refusedWith(await signInAs(onChain, account, { domain: 'evil.example' }), 'domain');
    const nonce = await nonceFrom(onChain);
    const other = siwe(account.address, nonce, { domain: '127.0.0.1:3001' });
    await refusedWith(await post(onChain, { message: other, signature: await account.signMessage({ message: other }) }), 'domain');
    const retry = siwe(account.address, nonce);
    await refusedWith(await post(onChain, { message: retry, signature: await account.signMessage({ message: retry }) }), 'nonce');
  });

  it('when the message is for another chain, then it is refused', async () => {
    await refusedWith(await signInAs(onChain, privateKeyToAccount(generatePrivateKey()), { chainId: 1 }), 'chain');
  });

  it('when another key signed the message, then it is refused and no user is created', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const other = privateKeyToAccount(generatePrivateKey());
    const message = siwe(account.address, await nonceFrom(onChain));
    await refusedWith(await post(onChain, { message, signature: await other.signMessage({ message }) }), 'signature');
    expect(await walletsOf(onChain, account.address)).toEqual([]);
  });
});

describe('POST /api/auth/callback/wallet: bad input (400, nothing spent)', () => {
  it('when the signature is not hex, or fields are missing, then 400 VALIDATION_ERROR and the nonce still works', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const message = siwe(account.address, await nonceFrom(onChain));
    for (const payload of [{ message, signature: 'not-hex' }, { message, signature: '0x123' }, { message }, { signature: '0x00' }, { message: '', signature: '0x00' }]) {
      const res = await post(onChain, payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    expect((await post(onChain, { message, signature: await account.signMessage({ message }) })).status).toBe(303);
  });

  it('when the message is not a SIWE message, then 400 INVALID_SIWE_MESSAGE', async () => {
    const res = await post(onChain, { message: 'hello, sign me in please', signature: `0x${'11'.repeat(65)}` });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_SIWE_MESSAGE');
    expect(res.cookies.find((c) => c.name === 'session')).toBeUndefined();
  });
});

describe('POST /api/auth/callback/wallet: the node', () => {
  it('when no node is configured, then an EOA still signs in and a smart wallet gets 503 CHAIN_NOT_CONFIGURED', async () => {
    expect((await signInAs(noNode, privateKeyToAccount(generatePrivateKey()))).status).toBe(303);
    const owner = privateKeyToAccount(generatePrivateKey());
    const wallet = await smartWallet(owner);
    const message = siwe(wallet.address, await nonceFrom(noNode));
    const res = await post(noNode, { message, signature: serializeErc6492Signature({ address: factory.address, data: wallet.factoryData, signature: await owner.signMessage({ message }) }) });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('CHAIN_NOT_CONFIGURED');
    expect(res.cookies.find((c) => c.name === 'session')).toBeUndefined();
  });

  it('when the node hangs, then a smart wallet gets 502 UPSTREAM_UNAVAILABLE within the timeout, no user is created, and an EOA still signs in', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const wallet = await smartWallet(owner);
    const message = siwe(wallet.address, await nonceFrom(hungNode));
    const started = Date.now();
    const res = await post(hungNode, { message, signature: serializeErc6492Signature({ address: factory.address, data: wallet.factoryData, signature: await owner.signMessage({ message }) }) });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await walletsOf(hungNode, wallet.address)).toEqual([]);
    expect((await signInAs(hungNode, privateKeyToAccount(generatePrivateKey()))).status).toBe(303);
  });
});

export type { Hex };
