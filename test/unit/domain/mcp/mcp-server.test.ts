import { describe, expect, it } from 'vitest';
import { ENTITLEMENT_ROWS } from '../../../../src/domain/billing/entitlements.js';
import { ADMIN_ALLOWANCE, allowanceOf } from '../../../../src/domain/agents/agent-limits.js';
import {
  isAllowedMcpHeader,
  isMcpServerName,
  isOfferedMcpName,
  MCP_SERVERS_PER_AGENT_MAX,
  mcpServerLimit,
  offeredToolName,
  offeredTools,
  permittedTools,
  serverOfOfferedName,
  toolOfOfferedName,
  type McpToolInfo,
} from '../../../../src/domain/mcp/mcp-server.js';

const tool = (name: string): McpToolInfo => ({ name, description: '', inputSchema: { type: 'object' } });

describe('MCP server names', () => {
  it('when a name has lower-case letters, digits, - and single _, then it is accepted; `__`, a trailing _, upper case or more than 32 are not', () => {
    for (const ok of ['orders', 'a', 'my-server', 'my_server2', '0x', 'a-_b']) expect(isMcpServerName(ok)).toBe(true);
    for (const bad of ['', 'Orders', 'two__parts', 'trailing_', '_lead', '-lead', 'dot.ted', 'x'.repeat(33), 'sp ace']) expect(isMcpServerName(bad)).toBe(false);
  });

  it('when a header is named, then HTTP tokens pass and the transport\'s own headers do not', () => {
    expect(isAllowedMcpHeader('Authorization')).toBe(true);
    expect(isAllowedMcpHeader('x-api-key')).toBe(true);
    for (const bad of ['Host', 'content-type', 'Mcp-Session-Id', 'bad header', '', 'a:b']) expect(isAllowedMcpHeader(bad)).toBe(false);
  });
});

describe('offered tool names', () => {
  it('when a tool is offered, then it is mcp__<server>__<tool> with characters providers refuse written as _, and it splits back to its server', () => {
    expect(offeredToolName('orders', 'lookup_order')).toBe('mcp__orders__lookup_order');
    expect(offeredToolName('orders', 'files/read.v2')).toBe('mcp__orders__files_read_v2');
    expect(serverOfOfferedName('mcp__orders__files_read_v2')).toBe('orders');
    expect(serverOfOfferedName('mcp__orders')).toBeNull();
    expect(serverOfOfferedName('calendar__schedule')).toBeNull();
    expect(isOfferedMcpName('mcp__a__b')).toBe(true);
    expect(isOfferedMcpName('calendar__schedule')).toBe(false);
  });

  it('when the offered name would pass 64 characters, then the tool is not offered', () => {
    expect(offeredToolName('s', 'x'.repeat(56))).toHaveLength(64);
    expect(offeredToolName('s', 'x'.repeat(57))).toBeNull();
  });

  it('when the allowlist is null, then every listed tool is permitted; otherwise only those it names, in the listing\'s order', () => {
    const listed = [tool('a'), tool('b'), tool('c')];
    expect(permittedTools(listed, null).map((t) => t.name)).toEqual(['a', 'b', 'c']);
    expect(permittedTools(listed, ['c', 'a', 'zz']).map((t) => t.name)).toEqual(['a', 'c']);
    expect(permittedTools(listed, []).map((t) => t.name)).toEqual([]);
  });

  it('when two tools write the same offered name, then only the first is offered, and the name leads back to it', () => {
    const listed = [tool('a.b'), tool('a/b'), tool('c')];
    expect(offeredTools('s', listed, null).map((o) => [o.offered, o.tool.name])).toEqual([
      ['mcp__s__a_b', 'a.b'],
      ['mcp__s__c', 'c'],
    ]);
    expect(toolOfOfferedName('s', 'mcp__s__a_b', listed, null)?.name).toBe('a.b');
    expect(toolOfOfferedName('s', 'mcp__s__c', listed, ['a.b'])).toBeUndefined();
  });
});

describe("the plan's bound on an agent's MCP servers", () => {
  it('when a plan is subscribed, then its skills per agent, at most 10; admins get 10', () => {
    for (const row of ENTITLEMENT_ROWS) {
      const allowance = allowanceOf([row], false)!;
      expect(mcpServerLimit(allowance)).toBe(Math.min(MCP_SERVERS_PER_AGENT_MAX, row.skills));
    }
    expect(ENTITLEMENT_ROWS.map((r) => mcpServerLimit(allowanceOf([r], false)!))).toEqual(ENTITLEMENT_ROWS.map((r) => (r.skills <= 3 ? 3 : 10)));
    expect(mcpServerLimit(ADMIN_ALLOWANCE)).toBe(10);
  });
});
