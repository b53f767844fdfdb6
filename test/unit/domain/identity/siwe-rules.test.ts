import { describe, expect, it } from 'vitest';
import { checkSiweClaims, requireSiweFields, walletEmail, isWalletEmail } from '../../../../src/domain/identity/siwe-rules.js';

const now = new Date('2026-11-24T12:00:00Z');
const fields = {
  domain: 'app.example:8443',
  address: '0xAbCdEf0123456789aBcDeF0123456789ABCDEF01',
  uri: 'https://app.example:8443',
  version: '1',
  chainId: 8453,
  nonce: 'abcdef0123456789',
  issuedAt: new Date('2026-11-24T11:59:00Z'),
};

describe('SIWE rules', () => {
  it('when every field is there, then the address is lowercased and the claims pass on our domain and Base', () => {
    const m = requireSiweFields(fields);
    expect(m.address).toBe('0xabcdef0123456789abcdef0123456789abcdef01');
    expect(() => checkSiweClaims(m, { domain: 'app.example:8443', now })).not.toThrow();
  });

  it('when a required field is missing or the version is not 1, then it is malformed', () => {
    expect(() => requireSiweFields({ ...fields, nonce: undefined })).toThrow(/missing nonce/);
    expect(() => requireSiweFields({ ...fields, version: '2' })).toThrow(/version/);
    expect(() => requireSiweFields({ ...fields, issuedAt: new Date(Number.NaN) })).toThrow(/timestamp/);
  });

  it('when the port, chain or validity window differ, then it is rejected with the reason', () => {
    const m = requireSiweFields(fields);
    expect(() => checkSiweClaims(m, { domain: 'app.example', now })).toThrow(expect.objectContaining({ details: { reason: 'domain' } }));
    expect(() => checkSiweClaims({ ...m, chainId: 1 }, { domain: m.domain, now })).toThrow(expect.objectContaining({ details: { reason: 'chain' } }));
    expect(() => checkSiweClaims({ ...m, expirationTime: now }, { domain: m.domain, now })).toThrow(expect.objectContaining({ details: { reason: 'expired' } }));
    expect(() => checkSiweClaims({ ...m, notBefore: new Date(now.getTime() + 1000) }, { domain: m.domain, now })).toThrow(expect.objectContaining({ details: { reason: 'not_before' } }));
    expect(() => checkSiweClaims({ ...m, issuedAt: new Date(now.getTime() + 120_000) }, { domain: m.domain, now })).toThrow(expect.objectContaining({ details: { reason: 'issued_at' } }));
  });

  it('when deriving the e-mail, then it is the lowercase address at wallet.<hostname>', () => {
    expect(walletEmail('0xABC', 'App.Example')).toBe('0xabc@wallet.app.example');
    expect(walletEmail('0xABC', 'app.example', '1a2b3c4d')).toBe('0xabc+1a2b3c4d@wallet.app.example');
  });

  it('when an e-mail is in wallet.<hostname>, in any case or with a suffix, then it is reserved; other domains (a subdomain of it, the bare host) are not', () => {
    expect(isWalletEmail('0xabc@wallet.app.example', 'app.example')).toBe(true);
    expect(isWalletEmail(' Anything+x@WALLET.App.Example ', 'app.example')).toBe(true);
    expect(isWalletEmail('0xabc@app.example', 'app.example')).toBe(false);
    expect(isWalletEmail('0xabc@x.wallet.app.example', 'app.example')).toBe(false);
    expect(isWalletEmail('0xabc@mywallet.app.example', 'app.example')).toBe(false);
  });
});
