import type { HotWrites } from '../../../application/ports/unit-of-work.port.js';
import { isUuid } from '../../../domain/shared/ids.js';
import { toMessage } from './kysely/kysely-agent-message-repository.js';

/**
 * Each hot write: the PL/pgSQL function that sets the identity and writes (its migration), its
 * arguments after the acting user's id in the function's order, and the mapper of its rows.
 * `accepts` is false for arguments the function's types would refuse (a malformed id): the write
 * then answers `refused` without a round trip. `awaitDisk` false: the call's own transaction
 * commits without waiting for the disk (`synchronous_commit` off for it alone).
 */
export const HOT_WRITES: {
  [K in keyof HotWrites]: {
    fn: string;
    accepts: (args: HotWrites[K]['args']) => boolean;
    values: (args: HotWrites[K]['args']) => unknown[];
    awaitDisk: (args: HotWrites[K]['args']) => boolean;
    map: (rows: any[]) => HotWrites[K]['result'];
    refused: HotWrites[K]['result'];
  };
} = {
  sendToRunningAgent: {
    // migration 2026_11_25_0032
    fn: 'hot_send_message',
    accepts: (a) => isUuid(a.agentId) && (a.sessionId === null || isUuid(a.sessionId)),
    values: (a) => [a.agentId, a.content, a.channel, a.sessionId],
    awaitDisk: (a) => a.awaitDisk,
    map: (rows) => (rows[0] ? toMessage(rows[0]) : null),
    refused: null,
  },
};
