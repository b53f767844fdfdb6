import { describe, expect, it } from 'vitest';
import type { RuntimeChatRequest, RuntimeChatResult, RuntimeToolRequest } from '../../../src/agent-host/agent-host-protocol.js';
import { answerWithTools, TOOL_RESULT_MAX_CHARS } from '../../../src/agent-host/agent-host-tool-loop.js';
import { ServiceCallError } from '../../../src/agent-host/agent-host-service-client.js';

/**
 * The loop's bookkeeping, with the two service calls answered by scripted functions (the wire
 * itself is covered by the service client's tests and the end-to-end agent-tools test).
 */
const base: RuntimeChatRequest = { agentId: 'a', model: 'm', messages: [{ role: 'user', content: 'go' }] };
const tools = [{ name: 'calendar__schedule', description: 'd', parameters: { type: 'object' } }];
const usage = { promptTokens: 10, completionTokens: 2, totalTokens: 12 };
const wantsTool = (id: string): RuntimeChatResult => ({ content: '', model: 'm', usage, tool_calls: [{ id, name: 'calendar__schedule', arguments: `{"n":"${id}"}` }] });

function script(answers: RuntimeChatResult[]) {
  const requests: RuntimeChatRequest[] = [];
  const runs: RuntimeToolRequest[] = [];
  return {
    requests,
    runs,
    calls: {
      complete: async (r: RuntimeChatRequest) => (requests.push(r), answers[Math.min(requests.length - 1, answers.length - 1)]!),
      runTool: async (r: RuntimeToolRequest): Promise<Record<string, unknown>> => (runs.push(r), { success: true, ran: r.arguments }),
    },
  };
}

describe('the agent-host tool loop', () => {
  it('when the model calls a tool then answers, then the result is handed back and the usage is summed over both calls', async () => {
    const s = script([wantsTool('c1'), { content: 'done', model: 'm', usage }]);
    const reply = await answerWithTools(base, tools, 5, s.calls);
    expect(reply).toEqual({ content: 'done', model: 'm', usage: { promptTokens: 20, completionTokens: 4, totalTokens: 24 } });
    expect(s.runs).toEqual([{ agentId: 'a', name: 'calendar__schedule', arguments: '{"n":"c1"}' }]);
    expect(s.requests[1]!.messages.slice(1)).toEqual([
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'calendar__schedule', arguments: '{"n":"c1"}' }] },
      { role: 'tool', tool_call_id: 'c1', name: 'calendar__schedule', content: '{"success":true,"ran":"{\\"n\\":\\"c1\\"}"}' },
    ]);
    expect(s.requests.map((r) => r.tool_choice)).toEqual([undefined, undefined]);
  });

  it('when the model never stops calling tools, then the last allowed call forbids them and the loop fails TOOL_STEP_LIMIT', async () => {
    const s = script([wantsTool('again')]);
    const err = await answerWithTools(base, tools, 2, s.calls).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceCallError);
    expect((err as ServiceCallError).code).toBe('TOOL_STEP_LIMIT');
    expect(s.requests.map((r) => r.tool_choice)).toEqual([undefined, 'none']);
    expect(s.runs).toHaveLength(1);
  });

  it('when a tool result is huge, then the model gets it cut and marked', async () => {
    const s = script([wantsTool('c1'), { content: 'ok', model: 'm', usage }]);
    s.calls.runTool = async () => ({ success: true, blob: 'x'.repeat(TOOL_RESULT_MAX_CHARS * 2) });
    await answerWithTools(base, tools, 3, s.calls);
    const sent = s.requests[1]!.messages.at(-1)!.content;
    expect(sent.length).toBeLessThan(TOOL_RESULT_MAX_CHARS + 100);
    expect(sent).toMatch(/result cut at 20000 characters\)$/);
  });

  it('when only one step is allowed, then the one call forbids tools', async () => {
    const s = script([{ content: 'text', model: 'm', usage }]);
    await expect(answerWithTools(base, tools, 1, s.calls)).resolves.toMatchObject({ content: 'text' });
    expect(s.requests[0]!.tool_choice).toBe('none');
  });
});
