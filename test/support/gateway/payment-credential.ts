import type { Hex } from 'viem';

/**
 * The `Authorization` header of an MPP payment (CONTRACT.md section 7 "MPP credential"):
 * `Payment <credential>`, the credential as JSON or base64url-encoded JSON. `signature` is the
 * payer's EIP-191 signature of the challenge nonce (`fundedPayer(...).sign(nonce)`); left out, the
 * header is what a client that does not sign sends.
 */
export function paymentAuthorization(p: { transaction: Hex; challengeNonce: string; signature?: Hex | undefined }, encoding: 'json' | 'base64url' = 'json'): string {
  const json = JSON.stringify({ scheme: 'Payment', transaction: p.transaction, challengeNonce: p.challengeNonce, ...(p.signature ? { signature: p.signature } : {}) });
  return `Payment ${encoding === 'json' ? json : Buffer.from(json).toString('base64url')}`;
}

/** Pays `price` of `token` to `recipient` from `payer` and answers the signed header for `nonce`. */
export async function payAndSign<T>(
  payer: { transfer: (token: T, to: Hex, value: bigint) => Promise<Hex>; sign: (message: string) => Promise<Hex> },
  token: T,
  recipient: Hex,
  price: bigint,
  nonce: string,
): Promise<{ tx: Hex; authorization: string }> {
  const tx = await payer.transfer(token, recipient, price);
  return { tx, authorization: paymentAuthorization({ transaction: tx, challengeNonce: nonce, signature: await payer.sign(nonce) }) };
}
