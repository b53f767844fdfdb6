import { afterEach, describe, expect, it } from 'vitest';
import { encodeFunctionData, serializeErc6492Signature, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { deployEip3009Token, eip3009Payer, randomAuthorizationNonce, signTransferAuthorization } from '../support/chain/eip3009-token.js';
import { startLocalChain } from '../support/chain/local-chain.js';
import { startRpcSwitch } from '../support/chain/rpc-switch.js';
import { echoPlugins } from '../support/gateway/echo-plugin.js';
import { decodePaymentResponseHeader, injectFetch, payingFetch } from '../support/gateway/x402-client.js';
import { waitFor } from '../support/polling.js';
import { startTestApp } from '../support/test-app.js';

/**
 * x402 version 2 (`exact` on EVM) at the gateway, driven by the published client (`@x402/fetch`
 * with `@x402/evm`) against a real EVM (anvil, chain 8453) and a USDC-like EIP-3009 token: a payer
 * signs, the service settles from its own account, waits for the confirmation, then serves. Every
 * way to be served twice for one authorization, or to pay less, someone else or too late, is a 402;
 * a settlement that cannot be made serves nothing and says why; a crash between settlement and
 * serving neither loses the payment nor serves twice.
 */
const chain = await startLocalChain();
const rpc = await startRpcSwitch(chain.rpcUrl);
const token = await deployEip3009Token(chain);
const factory = await chain.deploy('TestSmartWalletFactory');
const RECIPIENT = privateKeyToAccount(generatePrivateKey()).address;
const SETTLER_KEY = generatePrivateKey();
const SETTLER = privateKeyToAccount(SETTLER_KEY).address;
await chain.client.test.setBalance({ address: SETTLER, value: 10n ** 19n });
const PRICE = 10_000n; // MPP_PRICE_GENERATE_TEXT=0.01 at 6 decimals
const URL = 'http://127.0.0.1:3000/api/v1/gateway';

const { plugins, register } = echoPlugins('generate-text', 'tts', 'agent');
const env = {
    MPP_RPC_URL: rpc.url,
    MPP_TOKEN_ADDRESS: token.address,
    MPP_RECIPIENT: RECIPIENT,
    MPP_SETTLER_PRIVATE_KEY: SETTLER_KEY,
    MPP_PRICE_GENERATE_TEXT: '0.01',
    MPP_PRICE_TTS: '0.02',
    MPP_RPC_TIMEOUT_MS: '10000',
    MPP_SETTLE_TIMEOUT_MS: '3000',
    RATE_LIMIT_GATEWAY: '100000',
};
const t = await startTestApp({ env, override: register });
const { app } = t;
const owner = t.infra.pools.owner;

afterEach(async () => {
  rpc.setUp(true);
  rpc.setFault(null);
  rpc.setHold(null);
  for (const p of Object.values(plugins)) p.failing = false;
  await chain.client.test.setBalance({ address: SETTLER, value: 10n ** 19n });
});

const balanceOf = (a: Address) => chain.client.readContract({ address: token.address, abi: token.abi, functionName: 'balanceOf', args: [a] }) as Promise<bigint>;
const post = (body: unknown, headers: Record<string, string> = {}) =>
  ({ method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }) as const;
const rows = async (payer: Address) =>
  (await owner.query('select status, attempts, plugin, amount::text, tx_hash from mpp_authorizations where payer = $1', [payer.toLowerCase()])).rows;
/** What an agent's request says: pay on chain (without it an anonymous call is the processor method's 401). */
const asAgent = (body: unknown) => post(body, { 'x-payment-method': 'mpp' });
const decode = (header: string | null) => JSON.parse(Buffer.from(header!, 'base64').toString('utf8'));
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

/** A payer with tokens, and the published client paying as them; `paid()` is the PAYMENT-SIGNATURE its last paid request carried. */
async function newPayer(amount = 10n ** 9n) {
  const p = await eip3009Payer(chain, token, amount);
  const client = payingFetch(app, p.account, token.address);
  const paid = () => client.log.sent.map((s) => s.headers.get('payment-signature')).filter(Boolean).at(-1)!;
  return { ...p, ...client, paid };
}
/** Sends a request as a client that does not pay again by itself (a replay, an altered header). */
const raw = injectFetch(app).fetch;
/** A second process of the service on the same database, settling from the same settler. */
const second = await startTestApp({ env, override: register, databaseUrl: t.databaseUrl });
const rawSecond = injectFetch(second.app).fetch;
const reason = async (res: Response) => ((await res.json()) as { reason?: string }).reason;

describe('the 402 offers x402 beside the spec challenge', () => {
  it('when a client asks, then PAYMENT-REQUIRED carries the exact offer with the token’s EIP-712 domain read from the chain, and the spec body and WWW-Authenticate are unchanged', async () => {
    const res = await raw(URL, post({ prompt: 'hello' }, { 'x-payment-method': 'mpp' }));
    expect(res.status).toBe(402);
    expect(decode(res.headers.get('payment-required'))).toEqual({
      x402Version: 2,
      error: 'Payment required',
      resource: { url: URL, description: 'One call of the generate-text gateway plugin', mimeType: 'application/json' },
      accepts: [{ scheme: 'exact', network: 'eip155:8453', asset: token.address, amount: '10000', payTo: RECIPIENT, maxTimeoutSeconds: 300, extra: { name: 'USD Coin', version: '2' } }],
    });
    // the spec's challenge first and unchanged; with a settler, mppx's evm params follow it in the same challenge (decision 0435)
    expect(res.headers.get('www-authenticate')).toMatch(new RegExp(`^Payment amount=0\\.01, currency=${token.address}, recipient=${RECIPIENT}(, id="|$)`));
    const body = (await res.json()) as object;
    expect(Object.keys(body).sort()).toEqual(['error', 'message', 'mpp', 'psp']);
    // the published client reads it as its own
    const p = await newPayer();
    expect(p.http.getPaymentRequiredResponse((n) => res.headers.get(n)).accepts[0]!.extra).toEqual({ name: 'USD Coin', version: '2' });
  });
});

describe('paying with @x402/fetch', () => {
  it('when the client pays, then the call is served once, settled on chain from the settler, answered with PAYMENT-RESPONSE and Payment-Receipt', async () => {
    const p = await newPayer();
    const before = await balanceOf(RECIPIENT);
    const calls = plugins['generate-text'].calls.length;
    const res = await p.fetch(URL, asAgent({ prompt: 'pay me' }));
    expect(res.status).toBe(200);
    const settled = decodePaymentResponseHeader(res.headers.get('payment-response')!);
    expect(settled).toEqual({ success: true, transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/), network: 'eip155:8453', payer: p.address.toLowerCase() });
    expect(res.headers.get('payment-receipt')).toBe(settled.transaction);
    expect(((await res.json()) as { payment: unknown }).payment).toEqual({ method: 'mpp', receipt: settled.transaction });
    const receipt = await chain.client.getTransactionReceipt({ hash: settled.transaction as Hex });
    expect({ status: receipt.status, from: receipt.from }).toEqual({ status: 'success', from: SETTLER.toLowerCase() });
    expect(await balanceOf(RECIPIENT)).toBe(before + PRICE);
    expect(plugins['generate-text'].calls.length).toBe(calls + 1);
    expect(plugins['generate-text'].calls.at(-1)!.payer).toEqual({ kind: 'prepaid', via: 'mpp', userId: null, receipt: settled.transaction, level: 'label' });
    expect(await rows(p.address)).toEqual([{ status: 'served', attempts: 1, plugin: 'generate-text', amount: '10000', tx_hash: settled.transaction }]);
  });

  it('when the older X-PAYMENT header carries the payment, then it pays the same way', async () => {
    const p = await newPayer();
    const first = await p.fetch(URL, asAgent({ prompt: 'x-payment' }));
    expect(first.status).toBe(200);
    // a second authorization of the same client, sent under the old name
    const again = await newPayer();
    const offer = await raw(URL, post({ prompt: 'old name' }, { 'x-payment-method': 'mpp' }));
    const header = await signedPayment(again, decode(offer.headers.get('payment-required')).accepts[0]);
    const res = await raw(URL, post({ prompt: 'old name' }, { 'x-payment': header }));
    expect(res.status).toBe(200);
  });
});

/** A PAYMENT-SIGNATURE made by hand for `accepted`, with `change` applied to the signed authorization. */
async function signedPayment(p: Awaited<ReturnType<typeof newPayer>>, accepted: Record<string, unknown>, change: Partial<{ to: Address; value: bigint; validAfter: bigint; validBefore: bigint }> = {}) {
  const now = BigInt(Math.floor(Date.now() / 1000));
  const message = { from: p.address, to: accepted.payTo as Address, value: BigInt(accepted.amount as string), validAfter: 0n, validBefore: now + 300n, nonce: randomAuthorizationNonce(), ...change };
  const signature = await signTransferAuthorization(p.account, token, message);
  const authorization = Object.fromEntries(Object.entries(message).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]));
  return encode({ x402Version: 2, accepted, payload: { authorization, signature } });
}

describe('attacks on one authorization', () => {
  it('when a served authorization is replayed, then 402 AUTHORIZATION_USED with a fresh offer, nothing served or moved', async () => {
    const p = await newPayer();
    expect((await p.fetch(URL, asAgent({ prompt: 'once' }))).status).toBe(200);
    const payerBalance = await balanceOf(p.address);
    const calls = plugins['generate-text'].calls.length;
    for (const body of [{ prompt: 'once' }, { prompt: 'another call' }]) {
      const res = await raw(URL, post(body, { 'payment-signature': p.paid() }));
      expect(res.status).toBe(402);
      expect(await reason(res)).toBe('AUTHORIZATION_USED');
      expect(decode(res.headers.get('payment-required')).error).toMatch(/^AUTHORIZATION_USED/);
    }
    expect(plugins['generate-text'].calls.length).toBe(calls);
    expect(await balanceOf(p.address)).toBe(payerBalance);
  });

  it('when the amount or the recipient of a signed authorization is altered, then 402, nothing served or moved', async () => {
    const p = await newPayer();
    const offer = await raw(URL, post({ prompt: 'alter' }, { 'x-payment-method': 'mpp' }));
    const accepted = decode(offer.headers.get('payment-required')).accepts[0];
    const genuine = decode(await signedPayment(p, accepted));
    const calls = plugins['generate-text'].calls.length;
    const altered = [
      [{ value: (PRICE * 100n).toString() }, 'SIGNATURE_INVALID'],
      [{ value: '1' }, 'UNDERPAID'],
      [{ to: privateKeyToAccount(generatePrivateKey()).address }, 'WRONG_RECIPIENT'],
    ] as const;
    for (const [change, why] of altered) {
      const header = encode({ ...genuine, payload: { ...genuine.payload, authorization: { ...genuine.payload.authorization, ...change } } });
      const res = await raw(URL, post({ prompt: 'alter' }, { 'payment-signature': header }));
      expect({ status: res.status, reason: await reason(res) }).toEqual({ status: 402, reason: why });
    }
    // signed by the payer for less than the price, or to someone else: refused as well
    expect(await reason(await raw(URL, post({ prompt: 'alter' }, { 'payment-signature': await signedPayment(p, accepted, { value: PRICE - 1n }) })))).toBe('UNDERPAID');
    expect(await reason(await raw(URL, post({ prompt: 'alter' }, { 'payment-signature': await signedPayment(p, accepted, { to: SETTLER }) })))).toBe('WRONG_RECIPIENT');
    expect(plugins['generate-text'].calls.length).toBe(calls);
    expect(await balanceOf(p.address)).toBe(10n ** 9n);
    expect(await rows(p.address)).toEqual([]);
  });

  it('when the authorization has expired, or expires before it could be settled, then 402 EXPIRED', async () => {
    const p = await newPayer();
    const offer = await raw(URL, post({ prompt: 'late' }, { 'x-payment-method': 'mpp' }));
    const accepted = decode(offer.headers.get('payment-required')).accepts[0];
    const now = BigInt(Math.floor(Date.now() / 1000));
    for (const validBefore of [now - 10n, now + 2n]) {
      const res = await raw(URL, post({ prompt: 'late' }, { 'payment-signature': await signedPayment(p, accepted, { validBefore }) }));
      expect({ status: res.status, reason: await reason(res) }).toEqual({ status: 402, reason: 'EXPIRED' });
    }
    expect(await balanceOf(p.address)).toBe(10n ** 9n);
  });

  it('when two requests carry the same authorization at once, then one is served and the other gets 402; the token moves once', async () => {
    const p = await newPayer();
    const offer = await raw(URL, post({ prompt: 'race' }, { 'x-payment-method': 'mpp' }));
    const header = await signedPayment(p, decode(offer.headers.get('payment-required')).accepts[0]);
    const calls = plugins['generate-text'].calls.length;
    const answers = await Promise.all([0, 1, 2].map(() => raw(URL, post({ prompt: 'race' }, { 'payment-signature': header }))));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 402, 402]);
    expect(plugins['generate-text'].calls.length).toBe(calls + 1);
    expect(await balanceOf(p.address)).toBe(10n ** 9n - PRICE);
  });

  it('when the PAYMENT-SIGNATURE cannot be read, then 402 CREDENTIAL_INVALID with a fresh offer', async () => {
    for (const header of ['not base64 at all!', encode({ x402Version: 1, payload: {} }), encode({ x402Version: 2, accepted: { scheme: 'exact', network: 'eip155:8453', asset: token.address }, payload: { signature: '0x12' } })]) {
      const res = await raw(URL, post({ prompt: 'garbage' }, { 'payment-signature': header }));
      expect({ status: res.status, reason: await reason(res) }).toEqual({ status: 402, reason: 'CREDENTIAL_INVALID' });
      expect(decode(res.headers.get('payment-required')).accepts).toHaveLength(1);
    }
  });

  it('when the payment is for another network or token, then 402 naming which', async () => {
    const p = await newPayer();
    const offer = await raw(URL, post({ prompt: 'other' }, { 'x-payment-method': 'mpp' }));
    const accepted = decode(offer.headers.get('payment-required')).accepts[0];
    expect(await reason(await raw(URL, post({ prompt: 'other' }, { 'payment-signature': await signedPayment(p, { ...accepted, network: 'eip155:1' }) })))).toBe('OTHER_NETWORK');
    expect(await reason(await raw(URL, post({ prompt: 'other' }, { 'payment-signature': await signedPayment(p, { ...accepted, asset: SETTLER }) })))).toBe('OTHER_ASSET');
  });
});

describe('a settlement that fails', () => {
  it('when the settler has no ether for gas, then 502 SETTLEMENT_FAILED (SETTLER_UNFUNDED), nothing served or moved, and the same payment pays once it is funded', async () => {
    const p = await newPayer();
    const offer = await raw(URL, post({ prompt: 'no gas' }, { 'x-payment-method': 'mpp' }));
    const header = await signedPayment(p, decode(offer.headers.get('payment-required')).accepts[0]);
    await chain.client.test.setBalance({ address: SETTLER, value: 0n });
    const calls = plugins['generate-text'].calls.length;
    const res = await raw(URL, post({ prompt: 'no gas' }, { 'payment-signature': header }));
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ code: 'SETTLEMENT_FAILED', reason: 'SETTLER_UNFUNDED' });
    expect(plugins['generate-text'].calls.length).toBe(calls);
    expect(await balanceOf(p.address)).toBe(10n ** 9n);
    expect(await rows(p.address)).toEqual([]);
    await chain.client.test.setBalance({ address: SETTLER, value: 10n ** 19n });
    expect((await raw(URL, post({ prompt: 'no gas' }, { 'payment-signature': header }))).status).toBe(200);
  });

  it('when the settlement reverts on chain, then 402 SETTLEMENT_REVERTED, nothing served or moved; the same authorization may pay later', async () => {
    const p = await newPayer();
    const offer = await raw(URL, post({ prompt: 'revert' }, { 'x-payment-method': 'mpp' }));
    const header = await signedPayment(p, decode(offer.headers.get('payment-required')).accepts[0]);
    // the token starts refusing between the service's checks and its broadcast
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let reached!: () => void;
    const atBroadcast = new Promise<void>((r) => (reached = r));
    rpc.setHold((m) => (m === 'eth_sendRawTransaction' ? (reached(), held) : null));
    const calls = plugins['generate-text'].calls.length;
    const answer = raw(URL, post({ prompt: 'revert' }, { 'payment-signature': header }));
    await atBroadcast;
    await chain.write(token, 'setFailing', [true]);
    release();
    const res = await answer;
    await chain.write(token, 'setFailing', [false]);
    expect({ status: res.status, reason: await reason(res) }).toEqual({ status: 402, reason: 'SETTLEMENT_REVERTED' });
    expect(plugins['generate-text'].calls.length).toBe(calls);
    expect(await balanceOf(p.address)).toBe(10n ** 9n);
    rpc.setHold(null);
    expect((await raw(URL, post({ prompt: 'revert' }, { 'payment-signature': header }))).status).toBe(200);
    expect(await balanceOf(p.address)).toBe(10n ** 9n - PRICE);
  });

  it('when the node fails after the broadcast (as a crash between settlement and serving leaves it), then 502 and nothing served; the same payment is then served once, never settled twice', async () => {
    const p = await newPayer();
    const offer = await raw(URL, post({ prompt: 'crash' }, { 'x-payment-method': 'mpp' }));
    const header = await signedPayment(p, decode(offer.headers.get('payment-required')).accepts[0]);
    rpc.setFault((m) => m === 'eth_getTransactionReceipt');
    const calls = plugins['generate-text'].calls.length;
    const res = await raw(URL, post({ prompt: 'crash' }, { 'payment-signature': header }));
    expect(res.status).toBe(502);
    expect(plugins['generate-text'].calls.length).toBe(calls);
    // the settlement was mined: the payment is taken, and recorded so
    expect(await balanceOf(p.address)).toBe(10n ** 9n - PRICE);
    expect((await rows(p.address))[0]).toMatchObject({ status: 'submitted' });
    rpc.setFault(null);
    const resumed = await raw(URL, post({ prompt: 'crash' }, { 'payment-signature': header }));
    expect(resumed.status).toBe(200);
    expect(decodePaymentResponseHeader(resumed.headers.get('payment-response')!).transaction).toBe((await rows(p.address))[0].tx_hash);
    const replay = await raw(URL, post({ prompt: 'crash' }, { 'payment-signature': header }));
    expect({ status: replay.status, reason: await reason(replay) }).toEqual({ status: 402, reason: 'AUTHORIZATION_USED' });
    expect(plugins['generate-text'].calls.length).toBe(calls + 1);
    expect(await balanceOf(p.address)).toBe(10n ** 9n - PRICE);
  });

  it('when the broadcast never reaches the node (a crash after the record), then 502; the same payment sends the recorded bytes, not a second signature, and is served once', async () => {
    const p = await newPayer();
    const offer = await raw(URL, post({ prompt: 'lost' }, { 'x-payment-method': 'mpp' }));
    const header = await signedPayment(p, decode(offer.headers.get('payment-required')).accepts[0]);
    rpc.setFault((m) => m === 'eth_sendRawTransaction');
    const res = await raw(URL, post({ prompt: 'lost' }, { 'payment-signature': header }));
    expect(res.status).toBe(502);
    const [recorded] = await rows(p.address);
    expect(recorded).toMatchObject({ status: 'submitted' });
    expect(await balanceOf(p.address)).toBe(10n ** 9n);
    rpc.setFault(null);
    const resumed = await raw(URL, post({ prompt: 'lost' }, { 'payment-signature': header }));
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('payment-receipt')).toBe(recorded.tx_hash);
    expect(await balanceOf(p.address)).toBe(10n ** 9n - PRICE);
  });
});

describe('the prepaid rule', () => {
  it('when the plugin fails before any output, then the same payment is served once more for the same request only, and nothing is settled again', async () => {
    const p = await newPayer();
    plugins['generate-text'].failing = true;
    const failed = await p.fetch(URL, asAgent({ prompt: 'flaky' }));
    expect(failed.status).toBe(502);
    plugins['generate-text'].failing = false;
    expect((await rows(p.address))[0]).toMatchObject({ status: 'failed', attempts: 1 });
    const header = p.paid();
    const other = await raw(URL, post({ prompt: 'another body' }, { 'payment-signature': header }));
    expect({ status: other.status, reason: await reason(other) }).toEqual({ status: 402, reason: 'AUTHORIZATION_USED' });
    const retried = await raw(URL, post({ prompt: 'flaky' }, { 'payment-signature': header }));
    expect(retried.status).toBe(200);
    expect((await rows(p.address))[0]).toMatchObject({ status: 'served', attempts: 2 });
    expect((await raw(URL, post({ prompt: 'flaky' }, { 'payment-signature': header }))).status).toBe(402);
    expect(await balanceOf(p.address)).toBe(10n ** 9n - PRICE);
  });
});

describe('smart wallets', () => {
  it('when the payer is a deployed ERC-1271 wallet signed for by its owner, then it pays', async () => {
    const ownerKey = privateKeyToAccount(generatePrivateKey());
    const wallet = await chain.deploy('TestSmartWallet', [ownerKey.address]);
    await chain.write(token, 'mint', [wallet.address, 10n ** 9n]);
    const client = payingFetch(app, { address: wallet.address, signTypedData: (m) => ownerKey.signTypedData(m as never) }, token.address);
    const res = await client.fetch(URL, asAgent({ prompt: 'from a wallet' }));
    expect(res.status).toBe(200);
    expect(decodePaymentResponseHeader(res.headers.get('payment-response')!).payer).toBe(wallet.address.toLowerCase());
    expect(await balanceOf(wallet.address)).toBe(10n ** 9n - PRICE);
  });

  it('when the payer is an undeployed ERC-6492 wallet, then the settler deploys it by its factory call and settles; a stranger’s signature for it is refused', async () => {
    const ownerKey = privateKeyToAccount(generatePrivateKey());
    const salt = randomAuthorizationNonce();
    const address = (await chain.client.readContract({ address: factory.address, abi: factory.abi, functionName: 'addressOf', args: [ownerKey.address, salt] })) as Address;
    const factoryData = encodeFunctionData({ abi: factory.abi, functionName: 'deploy', args: [ownerKey.address, salt] });
    await chain.write(token, 'mint', [address, 10n ** 9n]);
    const as = (signer: typeof ownerKey) => ({
      address,
      signTypedData: async (m: unknown) => serializeErc6492Signature({ address: factory.address, data: factoryData, signature: await signer.signTypedData(m as never) }),
    });
    const stranger = payingFetch(app, as(privateKeyToAccount(generatePrivateKey())), token.address);
    const refused = await stranger.fetch(URL, asAgent({ prompt: 'not mine' }));
    expect({ status: refused.status, reason: await reason(refused) }).toEqual({ status: 402, reason: 'SIGNATURE_INVALID' });
    expect(await chain.client.getCode({ address })).toBeUndefined();
    const res = await payingFetch(app, as(ownerKey), token.address).fetch(URL, asAgent({ prompt: 'counterfactual' }));
    expect(res.status).toBe(200);
    expect(decodePaymentResponseHeader(res.headers.get('payment-response')!).payer).toBe(address.toLowerCase());
    expect(await balanceOf(address)).toBe(10n ** 9n - PRICE);
    expect(await chain.client.getCode({ address })).toMatch(/^0x[0-9a-f]+$/);
  });
});

describe('two processes, one settler', () => {
  it('when both settle several payments at once, then each is settled once at its own settler nonce and every call is served', async () => {
    // minted one after the other: the test's deployer sends them
    const payers = [];
    for (let i = 0; i < 6; i++) payers.push(await newPayer());
    const offer = await raw(URL, post({ prompt: 'busy' }, { 'x-payment-method': 'mpp' }));
    const accepted = decode(offer.headers.get('payment-required')).accepts[0];
    const headers = await Promise.all(payers.map((p) => signedPayment(p, accepted)));
    const answers = await Promise.all(headers.map((h, i) => (i % 2 ? rawSecond : raw)(URL, post({ prompt: 'busy' }, { 'payment-signature': h }))));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    for (const p of payers) expect(await balanceOf(p.address)).toBe(10n ** 9n - PRICE);
    const nonces = (await owner.query('select settler_nonce from mpp_authorizations where payer = any($1) order by settler_nonce', [payers.map((p) => p.address.toLowerCase())])).rows.map((r) => r.settler_nonce);
    expect(new Set(nonces).size).toBe(6);
  });
});

describe("the settler's lease", () => {
  it('when another process holds the settler, then a settlement waits, signing and sending nothing, and goes on once it is released', async () => {
    const p = await newPayer();
    const offer = await raw(URL, post({ prompt: 'wait' }, { 'x-payment-method': 'mpp' }));
    const header = await signedPayment(p, decode(offer.headers.get('payment-required')).accepts[0]);
    await owner.query(`insert into mpp_settler_leases (settler, holder, expires_at) values ($1, gen_random_uuid(), now() + interval '1 minute')`, [SETTLER.toLowerCase()]);
    const sent: string[] = [];
    rpc.setHold((m) => (m === 'eth_sendRawTransaction' && sent.push(m), null));
    const answer = raw(URL, post({ prompt: 'wait' }, { 'payment-signature': header }));
    await waitFor(async () => (await rows(p.address))[0]?.status, (status) => status === 'claimed');
    await new Promise((r) => setTimeout(r, 500));
    expect({ status: (await rows(p.address))[0]?.status, sent: sent.length }).toEqual({ status: 'claimed', sent: 0 });
    await owner.query('delete from mpp_settler_leases where settler = $1', [SETTLER.toLowerCase()]);
    expect((await answer).status).toBe(200);
    expect(sent.length).toBe(1);
  });
});
