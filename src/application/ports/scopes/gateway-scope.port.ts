import type { AuthorizationLedger } from '../authorization-ledger.port.js';
import type { MppLedger } from '../mpp-ledger.port.js';
import type { OneCallGrantRepository, SystemOneCallGrantRepository } from '../one-call-grant-repository.port.js';
import type { SharedSystemScope, SharedUserScope } from './shared-scope.port.js';

/** What the gateway use cases may touch as one user. */
export interface GatewayUserScope extends SharedUserScope {
  oneCallGrants: OneCallGrantRepository;
}

/** What they may touch as the system. */
export interface GatewaySystemScope extends SharedSystemScope {
  oneCallGrants: SystemOneCallGrantRepository;
  /** The gateway's MPP challenges and the payments that consumed them. */
  mppLedger: MppLedger;
  /** The gateway's EIP-3009 payments (x402, MPP's evm authorizations), their settlements, and the settlers' leases. */
  authorizationLedger: AuthorizationLedger;
}
