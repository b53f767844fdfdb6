import { HOST_FAILURE, type ChatMessage, type RuntimeChatRequest, type RuntimeChatResult, type RuntimeTool, type RuntimeToolRequest } from './agent-host-protocol.js';
import { ServiceCallError } from './agent-host-service-client.js';

/** A tool result longer than this is cut (marked) before it goes back to the model: one skill cannot flood the prompt. */
export const TOOL_RESULT_MAX_CHARS = 20_000;

export interface ToolLoopCalls {
  complete(request: RuntimeChatRequest): Promise<RuntimeChatResult>;
  runTool(request: RuntimeToolRequest): Promise<Record<string, unknown>>;
}

/**
 * An answer with tools (protocol: agent-host-protocol.ts "Tools"): ask the model, run each tool it
 * calls through the service, hand the results back, until it answers in text or `maxSteps` model
 * calls were made. The last allowed call forbids tools (`tool_choice: 'none'`), so a model that
 * plays by the rules always ends with text; one that still calls tools fails TOOL_STEP_LIMIT
 * rather than leaving the user with a half-done answer presented as a reply.
 */
export async function answerWithTools(
  base: RuntimeChatRequest,
  tools: RuntimeTool[],
  maxSteps: number,
  calls: ToolLoopCalls,
): Promise<RuntimeChatResult> {
  const messages: ChatMessage[] = [...base.messages];
  const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  const steps = Math.max(1, Math.floor(maxSteps));
  for (let step = 1; ; step++) {
    const last = step >= steps;
    const answer = await calls.complete({ ...base, messages: [...messages], tools, ...(last ? { tool_choice: 'none' as const } : {}) });
    usage.promptTokens += answer.usage.promptTokens;
    usage.completionTokens += answer.usage.completionTokens;
    usage.totalTokens += answer.usage.totalTokens;
    const toolCalls = answer.tool_calls ?? [];
    if (toolCalls.length === 0) return { content: answer.content, model: answer.model, usage };
    if (last) throw new ServiceCallError(HOST_FAILURE.toolStepLimit, `The model still called tools after ${steps} steps`);
    messages.push({ role: 'assistant', content: answer.content, tool_calls: toolCalls });
    // in order: a later call may depend on an earlier one's effect
    for (const c of toolCalls) {
      const result = await calls.runTool({ agentId: base.agentId, name: c.name, arguments: c.arguments });
      messages.push({ role: 'tool', tool_call_id: c.id, name: c.name, content: capped(JSON.stringify(result)) });
    }
  }
}

function capped(text: string): string {
  return text.length <= TOOL_RESULT_MAX_CHARS ? text : `${text.slice(0, TOOL_RESULT_MAX_CHARS)}… (result cut at ${TOOL_RESULT_MAX_CHARS} characters)`;
}
