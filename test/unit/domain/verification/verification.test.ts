import { describe, expect, it } from 'vitest';
import { judgeAttestation, type OnchainAttestation } from '../../../../src/domain/verification/attestation.js';
import { parseVerificationClaim } from '../../../../src/domain/verification/verification-claim.js';
import { UNVERIFIED, verificationMessage, verifiedRecord } from '../../../../src/domain/verification/verification.js';

const UID = `0x${'Ab'.repeat(32)}`;
const WALLET = `0x${'Cd'.repeat(20)}`;
const SIG = `0x${'11'.repeat(65)}`;

describe('verification claims', () => {
  it('when eas names a well-formed uid, then the claim carries it (and the wallet) lowercased', () => {
    expect(parseVerificationClaim({ verificationType: 'eas', attestationUid: UID, walletAddress: WALLET })).toEqual({ verificationType: 'eas', attestationUid: UID.toLowerCase(), walletAddress: WALLET.toLowerCase() });
    expect(parseVerificationClaim({ verificationType: 'eas', attestationUid: UID })).toMatchObject({ walletAddress: null });
  });

  it.each([
    [{ verificationType: 'twitter' }, 'body/verificationType'],
    [{ verificationType: 'eas' }, 'body/attestationUid'],
    [{ verificationType: 'eas', attestationUid: '0x1234' }, 'body/attestationUid'],
    [{ verificationType: 'eas', attestationUid: UID, walletAddress: '0xnope' }, 'body/walletAddress'],
    [{ verificationType: 'walletprovider' }, 'body/signature'],
    [{ verificationType: 'walletprovider', signature: 'not hex' }, 'body/signature'],
    [{ verificationType: 'webauthn', signature: SIG }, 'body/walletAddress'],
    [{ verificationType: 'ens', signature: SIG }, 'body/ensName'],
    [{ verificationType: 'ens', signature: SIG, ensName: 'nodot' }, 'body/ensName'],
  ])('when the claim is %j, then it is refused as VALIDATION_ERROR naming %s', (input, path) => {
    expect(() => parseVerificationClaim(input)).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR', details: { details: [{ path, message: expect.any(String) }] } }));
  });

  it('when a signature type is complete, then the claim keeps signature, wallet and (for ens) the name', () => {
    expect(parseVerificationClaim({ verificationType: 'walletprovider', signature: SIG })).toEqual({ verificationType: 'walletprovider', signature: SIG, walletAddress: null });
    expect(parseVerificationClaim({ verificationType: 'webauthn', signature: SIG, walletAddress: WALLET })).toEqual({ verificationType: 'webauthn', signature: SIG, walletAddress: WALLET.toLowerCase() });
    expect(parseVerificationClaim({ verificationType: 'ens', signature: SIG, ensName: 'alice.eth' })).toEqual({ verificationType: 'ens', signature: SIG, walletAddress: null, ensName: 'alice.eth' });
  });
});

describe('the verification message and states', () => {
  it("when the message is built, then it is the contract's exact text with APP_URL's host, port included", () => {
    expect(verificationMessage('a1', 'https://host.example')).toBe('Verify agent a1 on host.example');
    expect(verificationMessage('a1', 'http://127.0.0.1:3000/')).toBe('Verify agent a1 on 127.0.0.1:3000');
  });

  it('when a proof is recorded, then verified is true with its type and time; unverified is all nulls', () => {
    const at = new Date('2026-11-24T00:00:00Z');
    expect(verifiedRecord({ verificationType: 'eas', attestationUid: UID, verifierAddress: null, metadata: { onchainChecked: false }, at })).toEqual({
      verified: true, verificationType: 'eas', attestationUid: UID, verifierAddress: null, verifiedAt: at, metadata: { onchainChecked: false },
    });
    expect(UNVERIFIED).toEqual({ verified: false, verificationType: null, attestationUid: null, verifierAddress: null, verifiedAt: null, metadata: null });
  });
});

describe('judging an attestation read on chain', () => {
  const now = new Date('2026-11-24T00:00:00Z');
  const nowS = BigInt(now.getTime() / 1000);
  const good: OnchainAttestation = {
    uid: UID, schema: `0x${'00'.repeat(32)}`, time: nowS - 10n, expirationTime: 0n, revocationTime: 0n, refUID: `0x${'00'.repeat(32)}`, recipient: WALLET, attester: `0x${'ee'.repeat(20)}`, revocable: true,
  };
  const judge = (a: Partial<OnchainAttestation>, walletAddress: string | null = null) => judgeAttestation({ ...good, ...a }, { uid: UID.toLowerCase(), walletAddress, now });

  it('when it exists, is live, and its recipient is the wallet named (any case) or none is named, then it verifies', () => {
    expect(judge({})).toEqual({ ok: true });
    expect(judge({}, WALLET.toLowerCase())).toEqual({ ok: true });
    expect(judge({ expirationTime: nowS + 1n })).toEqual({ ok: true });
  });

  it('when it is all zero, revoked, expired, or made to another wallet, then it is refused with that reason', () => {
    expect(judge({ uid: `0x${'00'.repeat(32)}` })).toEqual({ ok: false, reason: 'unknown' });
    expect(judge({ revocationTime: nowS - 1n })).toEqual({ ok: false, reason: 'revoked' });
    expect(judge({ expirationTime: nowS })).toEqual({ ok: false, reason: 'expired' });
    expect(judge({}, `0x${'01'.repeat(20)}`)).toEqual({ ok: false, reason: 'recipient_mismatch' });
  });
});
