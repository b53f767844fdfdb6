import type { PublicClient } from 'viem';
import type { AttestationReader } from '../../../application/ports/verification-checks.port.js';
import type { OnchainAttestation } from '../../../domain/verification/attestation.js';
import { rpcRead } from './rpc-client.js';

/** `getAttestation(bytes32)` exactly as the EAS contract (IEAS.sol) declares it. */
export const EAS_GET_ATTESTATION_ABI = [
  {
    type: 'function',
    name: 'getAttestation',
    stateMutability: 'view',
    inputs: [{ name: 'uid', type: 'bytes32' }],
    outputs: [
      {
        name: '',
        type: 'tuple',
        components: [
          { name: 'uid', type: 'bytes32' },
          { name: 'schema', type: 'bytes32' },
          { name: 'time', type: 'uint64' },
          { name: 'expirationTime', type: 'uint64' },
          { name: 'revocationTime', type: 'uint64' },
          { name: 'refUID', type: 'bytes32' },
          { name: 'recipient', type: 'address' },
          { name: 'attester', type: 'address' },
          { name: 'revocable', type: 'bool' },
          { name: 'data', type: 'bytes' },
        ],
      },
    ],
  },
] as const;

/** Reads attestations from the EAS contract at `contract` through an RPC node. */
export class EasAttestationReader implements AttestationReader {
  readonly contract: string;

  constructor(
    private readonly client: PublicClient,
    contract: `0x${string}`,
  ) {
    this.contract = contract.toLowerCase();
  }

  async read(uid: string): Promise<OnchainAttestation> {
    const a = await rpcRead('EAS RPC', () =>
      this.client.readContract({ address: this.contract as `0x${string}`, abi: EAS_GET_ATTESTATION_ABI, functionName: 'getAttestation', args: [uid as `0x${string}`] }),
    );
    return {
      uid: a.uid,
      schema: a.schema,
      time: a.time,
      expirationTime: a.expirationTime,
      revocationTime: a.revocationTime,
      refUID: a.refUID,
      recipient: a.recipient,
      attester: a.attester,
      revocable: a.revocable,
    };
  }
}
