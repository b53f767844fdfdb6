import type { IdGenerator } from '../ports/id-generator.port.js';
import type { SecretBox, SealedSecret } from '../ports/secret-box.port.js';
import { newSecretToken, sha256 } from '../shared/secret-tokens.js';

/** The gateway token's sealing context: a sealed copy moved to another user's row is unreadable. */
export const gatewayTokenContext = (userId: string) => `gateway-token:${userId}`;

/** A new instance gateway token, with what is stored of it: the sealed copy and its sha256. */
export function newGatewayToken(ids: IdGenerator, secrets: SecretBox, userId: string): { token: string; stored: { sealed: SealedSecret; hash: Buffer } } {
  const token = `gw_${newSecretToken(ids)}`;
  return { token, stored: { sealed: secrets.seal(token, gatewayTokenContext(userId)), hash: sha256(token) } };
}
