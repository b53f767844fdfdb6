import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
import { expect } from 'vitest';
import { subscribe } from '../ai/chat-fixtures.js';
import { call, signUpAndIn } from '../http-client.js';

export const agentStatus = async (owner: Pool, agentId: string): Promise<string> =>
  (await owner.query(`select status from agents where id = $1`, [agentId])).rows[0]?.status;

/** A subscribed user with one agent provisioned through the API (the worker runs the job). */
export async function provisionedUser(app: FastifyInstance, owner: Pool, plan = 'solo') {
  const user = await signUpAndIn(app);
  await subscribe(owner, user.id, plan);
  const res = await call(app, { method: 'POST', url: '/api/agents/provision', headers: user.headers, payload: { name: 'Lifecycle' } });
  expect(res.status).toBe(201);
  return { user, agent: res.body.agent as { id: string } };
}

/**
 * A running instance with a gateway token known here, for calling POST /api/runtime/chat as its
 * runtime would (no provision job run). Provisioning the first agent already made the instance row
 * (docs/decisions/0242): it is updated.
 */
export async function gatewayTokenFor(owner: Pool, userId: string): Promise<string> {
  const token = `gw_${randomBytes(24).toString('hex')}`;
  await owner.query(
    `insert into instances (user_id, status, started_at, subdomain, url, plan, runtime_version, gateway_token_key_id, gateway_token_sealed, gateway_token_hash)
     values ($1, 'running', now(), $2, 'http://x/i', 'label', 'agent-host-test', 'k', '\\x00', $3)
     on conflict (user_id) do update set status = 'running', started_at = now(), gateway_token_key_id = excluded.gateway_token_key_id,
       gateway_token_sealed = excluded.gateway_token_sealed, gateway_token_hash = excluded.gateway_token_hash`,
    [userId, `sub-${randomBytes(4).toString('hex')}`, createHash('sha256').update(token).digest()],
  );
  return token;
}

/** The agent-host program of a user's instance, found in /proc by its environment (any process of this machine). */
export function agentHostPid(userId: string): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'utf8');
      if (environ.split('\0').includes(`AGENT_HOST_USER_ID=${userId}`)) return Number(entry);
    } catch {
      // gone, or not ours to read
    }
  }
  return null;
}
