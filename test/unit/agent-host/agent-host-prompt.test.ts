import { describe, expect, it } from 'vitest';
import {
  buildChatRequest,
  DEFAULT_SYSTEM_PROMPT,
  MEMORY_PROMPT_MAX_CHARS,
  MEMORY_VALUE_MAX_CHARS,
  renderMemory,
} from '../../../src/agent-host/agent-host-prompt.js';
import { agentHostEntry } from '../../../src/adapters/outbound/agent-runtimes/process/agent-host-entry.js';
import { parseChatError, parseChatResult, PROTOCOL_VERSION, readMessage, type WireDelivery } from '../../../src/agent-host/agent-host-protocol.js';

const delivery = (over: Partial<WireDelivery> = {}): WireDelivery => ({
  agentId: 'a1',
  model: 'm1',
  content: 'now',
  config: {},
  memory: {},
  history: [],
  ...over,
});

describe('the prompt of a delivery', () => {
  it('when the config has a system prompt, memory and history, then they come in that order before the message', () => {
    const req = buildChatRequest(
      delivery({
        config: { systemPrompt: 'Be brief.', temperature: 0.7, maxTokens: 100 },
        memory: { b: 2, a: { x: 'y' } },
        history: [
          { role: 'user', content: 'u1' },
          { role: 'assistant', content: 'a1' },
        ],
      }),
    );
    expect(req).toEqual({
      agentId: 'a1',
      model: 'm1',
      temperature: 0.7,
      max_tokens: 100,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'system', content: 'Your memory (key: JSON value), saved from earlier conversations:\na: {"x":"y"}\nb: 2' },
        { role: 'user', content: 'u1' },
        { role: 'assistant', content: 'a1' },
        { role: 'user', content: 'now' },
      ],
    });
  });

  it('when the config is empty or invalid, then the default system prompt is used and no sampling fields are sent', () => {
    for (const config of [{}, { systemPrompt: '   ', temperature: 'hot', maxTokens: 1.5 }, { temperature: Number.NaN, maxTokens: 0 }]) {
      const req = buildChatRequest(delivery({ config }));
      expect(req.messages).toEqual([
        { role: 'system', content: DEFAULT_SYSTEM_PROMPT },
        { role: 'user', content: 'now' },
      ]);
      expect(req).not.toHaveProperty('temperature');
      expect(req).not.toHaveProperty('max_tokens');
    }
  });

  it('when history holds a role other than user or assistant, then it is left out', () => {
    const history = [{ role: 'system', content: 'injected' }, { role: 'user', content: 'ok' }] as WireDelivery['history'];
    expect(buildChatRequest(delivery({ history })).messages.map((m) => m.content)).toEqual([DEFAULT_SYSTEM_PROMPT, 'ok', 'now']);
  });
});

describe('the memory message', () => {
  it('when the memory is empty, then there is none', () => {
    expect(renderMemory({})).toBeNull();
  });

  it('when a value is long, then it is cut with an ellipsis', () => {
    const text = renderMemory({ k: 'x'.repeat(5_000) })!;
    const line = text.split('\n')[1]!;
    expect(line.length).toBe('k: '.length + MEMORY_VALUE_MAX_CHARS);
    expect(line.endsWith('…')).toBe(true);
  });

  it('when the memory is large, then the message stays within its bound and says how many entries were left out', () => {
    const memory = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`key${String(i).padStart(3, '0')}`, 'v'.repeat(100)]));
    const text = renderMemory(memory)!;
    expect(text.length).toBeLessThanOrEqual(MEMORY_PROMPT_MAX_CHARS);
    const shown = text.split('\n').filter((l) => l.startsWith('key')).length;
    expect(text).toMatch(new RegExp(`\\n\\(${500 - shown} more entries omitted\\)$`));
    expect(renderMemory(memory)).toBe(text); // the same memory renders the same text
  });
});

describe('the protocol', () => {
  it('when a message has another version or no type, then it is not read', () => {
    expect(readMessage({ v: PROTOCOL_VERSION, type: 'ping', id: '1' })).toEqual({ v: 1, type: 'ping', id: '1' });
    expect(readMessage({ v: 2, type: 'ping', id: '1' })).toBeNull();
    expect(readMessage({ v: 1 })).toBeNull();
    expect(readMessage('ping')).toBeNull();
  });

  it('when a result or an error body is parsed, then only the documented shape passes', () => {
    const usage = { promptTokens: 1, completionTokens: 2, totalTokens: 3 };
    expect(parseChatResult({ content: 'c', model: 'm', usage, extra: 1 })).toEqual({ content: 'c', model: 'm', usage });
    expect(parseChatResult({ content: 'c', model: 'm', usage: { promptTokens: -1, completionTokens: 2, totalTokens: 3 } })).toBeNull();
    expect(parseChatResult({ content: 'c', usage })).toBeNull();
    expect(parseChatError({ error: 'no credit', code: 'USAGE_EXHAUSTED' })).toEqual({ error: 'no credit', code: 'USAGE_EXHAUSTED' });
    expect(parseChatError({ error: 'no code' })).toBeNull();
  });

  it('when run from the sources, then the program is the .ts file in src/agent-host, loaded with tsx', () => {
    const entry = agentHostEntry();
    expect(entry.file).toMatch(/src\/agent-host\/agent-host-program\.ts$/);
    expect(entry.execArgv).toEqual(['--import', expect.stringMatching(/^file:\/\/.*tsx/)]);
  });
});
