import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { insertUser } from '../../support/builders.js';
import { openTestPersistence } from '../../support/persistence.js';
import { sqlAsUser } from '../../support/sql-as-user.js';

/**
 * The agents' MCP servers as the app roles meet them (decision 0440): a user reads, changes and
 * removes only their own agents' servers, cannot hang one on another user's agent, and may change
 * only a check's outcome; the system role reads them and writes nothing.
 */
const { pools, uow } = await openTestPersistence();
const asUser = sqlAsUser(pools);
const alice = await insertUser(uow);
const bob = await insertUser(uow);
const agentOf = async (userId: string) => (await pools.owner.query(`insert into agents (user_id, name, model, status) values ($1, 'A', 'm', 'running') returning id`, [userId])).rows[0].id as string;
const aliceAgent = await agentOf(alice.id);
const bobAgent = await agentOf(bob.id);
const server = {
  id: randomUUID(),
  agentId: aliceAgent,
  userId: alice.id,
  name: 'orders',
  url: 'https://mcp.example/mcp',
  headerNames: ['authorization'],
  headers: { keyId: 'k1_test', ciphertext: Buffer.from('sealed bytes') },
  allowedTools: null,
  tools: [{ name: 'lookup', description: 'd', inputSchema: { type: 'object' } }],
  status: 'ok' as const,
  statusError: null,
  checkedAt: new Date(),
};
await uow.asUser(alice.id, (s) => s.mcpServers.insert(server));

describe("the agents' MCP servers under row-level security", () => {
  it("when bob reads, changes or deletes alice's server, then he sees and touches nothing", async () => {
    expect((await asUser(bob.id, `select * from agent_mcp_servers`)).rows).toEqual([]);
    expect((await asUser(bob.id, `update agent_mcp_servers set status = 'error' where id = $1`, [server.id])).rowCount).toBe(0);
    expect((await asUser(bob.id, `delete from agent_mcp_servers where id = $1`, [server.id])).rowCount).toBe(0);
    expect(await uow.asUser(bob.id, (s) => s.mcpServers.listForAgent(aliceAgent))).toEqual([]);
    expect(await uow.asUser(bob.id, (s) => s.mcpServers.remove(aliceAgent, server.id))).toBe(false);
    expect((await asUser(alice.id, `select id, status from agent_mcp_servers`)).rows).toEqual([{ id: server.id, status: 'ok' }]);
  });

  it("when bob writes a server as alice, or on alice's agent as himself, then the database refuses it", async () => {
    await expect(asUser(bob.id, `insert into agent_mcp_servers (id, agent_id, user_id, name, url, status, checked_at) values ($1, $2, $3, 'x', 'https://x', 'ok', now())`, [randomUUID(), aliceAgent, alice.id])).rejects.toMatchObject({ code: '42501' });
    await expect(asUser(bob.id, `insert into agent_mcp_servers (id, agent_id, user_id, name, url, status, checked_at) values ($1, $2, $3, 'x', 'https://x', 'ok', now())`, [randomUUID(), aliceAgent, bob.id])).rejects.toMatchObject({ code: '23503' });
    expect((await asUser(bob.id, `insert into agent_mcp_servers (id, agent_id, user_id, name, url, status, checked_at) values ($1, $2, $3, 'x', 'https://x', 'ok', now())`, [randomUUID(), bobAgent, bob.id])).rowCount).toBe(1);
  });

  it('when alice changes anything of her server but a check\'s outcome, then the database refuses it', async () => {
    await expect(asUser(alice.id, `update agent_mcp_servers set url = 'https://elsewhere' where id = $1`, [server.id])).rejects.toMatchObject({ code: '42501' });
    await expect(asUser(alice.id, `update agent_mcp_servers set headers_sealed = 'x' where id = $1`, [server.id])).rejects.toMatchObject({ code: '42501' });
    expect((await asUser(alice.id, `update agent_mcp_servers set status = 'error', status_error = 'down' where id = $1`, [server.id])).rowCount).toBe(1);
  });

  it('when the system reads an agent\'s servers, then it sees them; it may write none', async () => {
    expect((await uow.asSystem((s) => s.agentMcpServers.listForAgent(aliceAgent))).map((x) => [x.name, x.headers?.keyId])).toEqual([['orders', 'k1_test']]);
    await expect(uow.asSystem(async () => pools.system.query(`update agent_mcp_servers set status = 'ok'`))).rejects.toMatchObject({ code: '42501' });
  });
});
