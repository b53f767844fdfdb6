import type { Role } from '../../domain/accounts/account-rules.js';
import type { UserId } from '../../domain/shared/ids.js';

/** How the caller proved who they are; a JWT remembers the session or key it came from. */
export type Credential =
  | { kind: 'session'; sessionId: string }
  | { kind: 'api-key'; keyId: string }
  | { kind: 'jwt'; sid: string };

/** The authenticated caller of a use case. `role` is decided from configuration at each request. */
export interface Actor {
  userId: UserId;
  email: string;
  role: Role;
  credential: Credential;
}

/** The `sid` a JWT carries: the session or API key it was issued from. */
export const sidOf = (c: Credential): string =>
  c.kind === 'session' ? `s:${c.sessionId}` : c.kind === 'api-key' ? `k:${c.keyId}` : c.sid;
