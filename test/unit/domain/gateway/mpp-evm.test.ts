import { Challenge, Credential } from 'mppx';
import * as evmClient from 'mppx/evm/client';
import { Types as EvmTypes } from 'mppx/evm';
import { keccak256, recoverTypedDataAddress, stringToHex, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import {
  challengeBoundNonce,
  mppEvmBindingMismatch,
  mppEvmAuthParams,
  mppxCredentialJson,
  parseMppEvmCredential,
  payerSource,
  realmOf,
  type MppEvmCredential,
  type MppEvmOffer,
} from '../../../../src/domain/gateway/mpp-evm.js';

/**
 * The gateway's side of mppx's `evm` authorization, checked against mppx 0.11 itself: the
 * challenge the gateway writes is read by mppx's own parser, mppx's own client signs for it, and
 * the gateway reads that credential and finds the challenge bound in as mppx binds it.
 */
const decode = (s: string) => Buffer.from(s, 'base64url').toString('utf8');
const encode = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const keccakUtf8 = (text: string) => keccak256(stringToHex(text));
const TOKEN = '0x1111111111111111111111111111111111111111';
const RECIPIENT = '0x2222222222222222222222222222222222222222';
const AUTH_DOMAIN = { name: 'USD Coin', version: '2' };

const offer = (over: Partial<MppEvmOffer> = {}): MppEvmOffer => ({
  id: 'A'.repeat(32),
  realm: 'gateway.example',
  amount: 10_000n,
  token: TOKEN,
  recipient: RECIPIENT,
  chainId: 8453,
  decimals: 6,
  description: 'One call of the generate-text gateway plugin',
  expiresAt: new Date(Date.now() + 5 * 60_000),
  ...over,
});
/** The spec's own challenge first, mppx's params after it, as the gateway's 402 sends it. */
const header = (o: MppEvmOffer) => `Payment amount=0.01, currency=${TOKEN}, recipient=${RECIPIENT}, ${mppEvmAuthParams(o, encode)}`;

/** What mppx's client sends for a challenge header (its real `createCredential`). */
async function mppxPays(wwwAuthenticate: string, account = privateKeyToAccount(generatePrivateKey())) {
  const [challenge] = Challenge.deserializeList(wwwAuthenticate);
  const method = evmClient.charge({ account, authorization: AUTH_DOMAIN });
  const credential = await method.createCredential({ challenge: challenge as never, context: {} as never });
  return { account, credential: credential as string, challenge: challenge! };
}

const read = (authorization: string): MppEvmCredential | null => {
  const json = mppxCredentialJson(authorization, decode);
  return json ? parseMppEvmCredential(json) : null;
};

describe("the gateway's challenge, as mppx reads it", () => {
  it('when mppx parses the 402 header, then it finds one evm charge challenge with the stored id, the realm and the price in base units, and the spec params are ignored', () => {
    const o = offer();
    const [challenge, ...others] = Challenge.deserializeList(header(o));
    expect(others).toEqual([]);
    expect(challenge).toMatchObject({ id: o.id, realm: 'gateway.example', method: 'evm', intent: 'charge', expires: o.expiresAt.toISOString() });
    expect(challenge!.request).toEqual({
      amount: '10000',
      currency: TOKEN,
      description: o.description,
      methodDetails: { chainId: 8453, credentialTypes: ['authorization'], decimals: 6 },
      recipient: RECIPIENT,
    });
  });

  it("when the spec's header alone is sent, then mppx cannot read it (why the params are added)", () => {
    expect(() => Challenge.deserializeList(`Payment amount=0.01, currency=${TOKEN}, recipient=${RECIPIENT}`)).toThrow(/request/);
  });

  it('when the realm is taken from APP_URL, then it is the host with its port', () => {
    expect(realmOf('https://gateway.example')).toBe('gateway.example');
    expect(realmOf('http://127.0.0.1:3000/')).toBe('127.0.0.1:3000');
  });
});

describe("mppx's credential, as the gateway reads it", () => {
  it('when mppx signs for the challenge, then the gateway reads the authorization, and its nonce is keccak256(id + realm)', async () => {
    const o = offer();
    const { account, credential } = await mppxPays(header(o));
    expect(credential.startsWith('Payment ')).toBe(true);
    const read1 = read(credential)!;
    expect(read1).toMatchObject({ challengeId: o.id, realm: o.realm, source: payerSource(8453, account.address) });
    const a = read1.signed.authorization;
    // addresses, nonce and signature lower-cased, as every envelope's are compared and stored
    expect(a).toEqual({ from: account.address.toLowerCase(), to: RECIPIENT, value: 10_000n, validAfter: 0n, validBefore: BigInt(Math.floor(o.expiresAt.getTime() / 1000)), nonce: expect.any(String) });
    expect(a.nonce).toBe(challengeBoundNonce(o.id, o.realm, keccakUtf8));
    // the same derivation as mppx's own
    expect(a.nonce).toBe((EvmTypes.challengeHash({ id: o.id, realm: o.realm } as never) as Hex).toLowerCase());
    // and the signature is the payer's EIP-3009 TransferWithAuthorization on the token's domain
    const signer = await recoverTypedDataAddress({
      domain: { ...AUTH_DOMAIN, chainId: 8453, verifyingContract: TOKEN },
      types: EvmTypes.authorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message: { ...a },
      signature: read1.signed.signature,
    });
    expect(signer).toBe(account.address);
  });

  it('when the credential is bound to the challenge it names, then nothing is amiss', async () => {
    const o = offer();
    const c = read((await mppxPays(header(o))).credential)!;
    expect(mppEvmBindingMismatch(c, { nonce: challengeBoundNonce(o.id, o.realm, keccakUtf8), chainId: 8453 })).toBeNull();
    expect(mppEvmBindingMismatch({ ...c, source: null }, { nonce: challengeBoundNonce(o.id, o.realm, keccakUtf8), chainId: 8453 })).toBeNull();
  });

  it('when the credential was signed for another challenge or another realm, then CHALLENGE_NOT_BOUND', async () => {
    const o = offer();
    const c = read((await mppxPays(header(o))).credential)!;
    expect(mppEvmBindingMismatch(c, { nonce: challengeBoundNonce('B'.repeat(32), o.realm, keccakUtf8), chainId: 8453 })).toBe('CHALLENGE_NOT_BOUND');
    expect(mppEvmBindingMismatch(c, { nonce: challengeBoundNonce(o.id, 'evil.example', keccakUtf8), chainId: 8453 })).toBe('CHALLENGE_NOT_BOUND');
  });

  it('when the source names another chain or payer, then SOURCE_MISMATCH', async () => {
    const o = offer();
    const c = read((await mppxPays(header(o))).credential)!;
    const nonce = challengeBoundNonce(o.id, o.realm, keccakUtf8);
    expect(mppEvmBindingMismatch(c, { nonce, chainId: 1 })).toBe('SOURCE_MISMATCH');
    expect(mppEvmBindingMismatch({ ...c, source: payerSource(8453, RECIPIENT) }, { nonce, chainId: 8453 })).toBe('SOURCE_MISMATCH');
  });

  it("when the credential is the spec's transaction-hash one, then it is not mppx's (left to its own parser)", () => {
    const spec = JSON.stringify({ scheme: 'Payment', transaction: `0x${'ab'.repeat(32)}`, challengeNonce: 'n'.repeat(32), signature: `0x${'1b'.repeat(65)}` });
    expect(mppxCredentialJson(`Payment ${spec}`, decode)).toBeNull();
    expect(mppxCredentialJson(`Payment ${encode(spec)}`, decode)).toBeNull();
  });

  it('when a field is missing or malformed, or the method, intent or type is another, then null', async () => {
    const o = offer();
    const { credential } = await mppxPays(header(o));
    const wire = JSON.parse(decode(credential.slice('Payment '.length))) as { challenge: Record<string, unknown>; payload: Record<string, unknown>; source?: unknown };
    const variant = (mutate: (w: typeof wire) => void) => {
      const w = structuredClone(wire);
      mutate(w);
      return `Payment ${encode(JSON.stringify(w))}`;
    };
    expect(read(variant(() => {}))).not.toBeNull();
    for (const bad of [
      variant((w) => (w.challenge.method = 'tempo')),
      variant((w) => (w.challenge.intent = 'session')),
      variant((w) => (w.payload.type = 'transaction')),
      variant((w) => (w.challenge.id = 'short')),
      variant((w) => delete w.challenge.realm),
      variant((w) => (w.payload.from = '0x12')),
      variant((w) => (w.payload.to = 7)),
      variant((w) => (w.payload.value = '-1')),
      variant((w) => (w.payload.value = '1e6')),
      variant((w) => (w.payload.validBefore = 10)),
      variant((w) => (w.payload.nonce = '0x1234')),
      variant((w) => (w.payload.signature = 'nothex')),
      variant((w) => (w.source = { did: 1 })),
    ]) {
      expect(read(bad)).toBeNull();
    }
    expect(read('Payment !!!')).toBeNull();
    expect(read(`Payment ${'A'.repeat(15_000)}`)).toBeNull();
    expect(read(`Bearer ${credential.slice('Payment '.length)}`)).toBeNull();
  });

  it("when mppx's own Credential parser reads what the gateway accepts, then both see the same payload", async () => {
    const { credential } = await mppxPays(header(offer()));
    const theirs = Credential.deserialize(credential);
    const ours = read(credential)!;
    expect((theirs.payload as { nonce: string }).nonce.toLowerCase()).toBe(ours.signed.authorization.nonce);
    expect(theirs.challenge.id).toBe(ours.challengeId);
  });
});
