import { jwtVerify, SignJWT } from 'jose';
import { isUuid, type UserId } from '../../../domain/shared/ids.js';
import type { AccessClaims, TokenSigner } from '../../../application/ports/token-signer.port.js';

/**
 * HS256 JWTs with jose. The algorithm is pinned on verify, so `alg: none` or any other
 * algorithm is rejected however the token is signed.
 */
export class JoseTokenSigner implements TokenSigner {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(claims: AccessClaims, ttlSeconds: number): Promise<string> {
    return new SignJWT({ userId: claims.userId, email: claims.email, role: claims.role, sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .sign(this.key);
  }

  async verify(token: string): Promise<(AccessClaims & { exp: number }) | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      const { userId, email, role, sid, exp } = payload as Record<string, unknown>;
      if (!isUuid(userId) || typeof email !== 'string' || (role !== 'user' && role !== 'admin') || typeof sid !== 'string' || typeof exp !== 'number') {
        return null;
      }
      return { userId: userId as UserId, email, role, sid, exp };
    } catch {
      return null;
    }
  }
}
