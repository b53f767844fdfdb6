import type { HotWrites } from '../../../application/ports/unit-of-work.port.js';
import { isUuid, type UserId } from '../../../domain/shared/ids.js';
import { toMessage } from './kysely/kysely-agent-message-repository.js';
import { MCP_SERVER_TOOLS, toContext } from './kysely/kysely-agent-mailbox.js';

/**
 * Each hot write: the PL/pgSQL function that sets the identity and writes (its migration), its
 * arguments after the acting user's id in the function's order, and the mapper of its rows.
 * `accepts` is false for arguments the function's types would refuse (a malformed id): the write
 * then answers `refused` without a round trip. `awaitDisk` false: the call's own transaction
 * commits without waiting for the disk (`synchronous_commit` off for it alone). `alsoSelect`: columns
 * the same statement adds to each row the function returns (`h`), read after the function ran, in
 * its transaction and so under the identity it set.
 */
export const HOT_WRITES: {
  [K in keyof HotWrites]: {
    fn: string;
    alsoSelect?: string;
    accepts: (args: HotWrites[K]['args']) => boolean;
    values: (args: HotWrites[K]['args']) => unknown[];
    awaitDisk: (args: HotWrites[K]['args']) => boolean;
    map: (rows: any[], args: HotWrites[K]['args'], userId: UserId) => HotWrites[K]['result'];
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
  sendAndClaim: {
    // migration 2026_11_27_0101
    fn: 'hot_send_and_claim',
    // the agent's MCP servers with the claim's context (decision 0479): the function's own columns unchanged
    alsoSelect: `CASE WHEN h.claimed THEN ${MCP_SERVER_TOOLS('h.agent_id')} ELSE '[]' END AS mcp_servers`,
    accepts: (a) => isUuid(a.agentId) && (a.sessionId === null || isUuid(a.sessionId)) && isUuid(a.claimId),
    values: (a) => [a.agentId, a.content, a.channel, a.sessionId, a.claimId, a.workerId, Math.max(0, Math.floor(a.historyLimit))],
    awaitDisk: () => false,
    map: (rows, a, userId) => {
      const r = rows[0];
      if (!r) return null;
      const message = toMessage(r);
      if (!r.claimed) return { message, claimed: null };
      const claimed = { message_id: r.id, agent_id: r.agent_id, attempts: r.attempts, content: r.content, session_id: r.session_id, created_at: r.created_at, others_queued: r.others_queued };
      return {
        message,
        claimed: toContext({ ...claimed, agent: r.agent, history: r.history, installs: r.installs, memory: r.memory, mcp_servers: r.mcp_servers }, userId, { claimId: a.claimId, workerId: a.workerId }),
      };
    },
    refused: null,
  },
};
