import { describe, expect, it } from 'vitest';
import { instanceUrlFor, websocketUrlFor } from '../../../../src/application/agents/agent-urls.js';

describe('agent URLs from APP_URL', () => {
  it('the websocket URL is ws(s)://<APP_URL host>/api/agents/:id/ws, port kept, path dropped', () => {
    expect(websocketUrlFor('http://127.0.0.1:3000', 'a1')).toBe('ws://127.0.0.1:3000/api/agents/a1/ws');
    expect(websocketUrlFor('https://agents.example.com/base', 'a1')).toBe('wss://agents.example.com/api/agents/a1/ws');
  });

  it('the instance URL is its resource under the service', () => {
    expect(instanceUrlFor('https://agents.example.com/', 'u1')).toBe('https://agents.example.com/api/instance/u1');
  });
});
