import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NoGatewayPluginError } from '../../../src/application/errors.js';
import { AgentAnswerFailedError, HttpEdgeError } from '../../../src/adapters/inbound/http/http-error.js';
import { toResponse } from '../../../src/adapters/inbound/http/plugins/error-handler.js';
import { agentFailureBody } from '../../../src/adapters/inbound/http/presenters/agent-presenters.js';

const HTTP = join('src', 'adapters', 'inbound', 'http');
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

describe('where errors become HTTP statuses', () => {
  it('when an HTTP edge answers an error, then it throws and error-map.ts decides the status: only success statuses and the answers named here are written by hand (decision 0405)', () => {
    const SUCCESS = new Set(['201', '202', '204', '303']);
    /** The statuses written outside error-map.ts, each with why. */
    const allowed: Record<string, string[]> = {
      // the challenge is the gateway's answer to an unpaid call, an offer the spec shapes (terms, WWW-Authenticate), not an error
      'gateway.routes.ts': ['402'],
      // a probe's status is its reading, and its body the report the spec shapes (`{status, database, timestamp}`)
      'health.routes.ts': ['500', 'database ? 200 : 503'],
      'ai.routes.ts': ['503'],
      // the spec's failure report keeps `metrics: {}`
      'metrics.routes.ts': ['500'],
    };
    const written = files(HTTP)
      .filter((f) => !f.endsWith(join('plugins', 'error-handler.ts')))
      .map((f) => ({ file: f.split(/[\\/]/).at(-1)!, statuses: [...readFileSync(f, 'utf8').matchAll(/\.(?:status|code)\(([^()]*)\)/g)].map((m) => m[1]!.trim()).filter((s) => !SUCCESS.has(s)) }))
      .filter((w) => w.statuses.length > 0 && JSON.stringify(w.statuses) !== JSON.stringify(allowed[w.file] ?? []));
    expect(written).toEqual([]);
  });

  it("when the gateway refuses, then the bodies are the spec's: 401 {error: Unauthorized}, 502 {error: no_plugin, message}, 500 {error: internal}", () => {
    expect(toResponse(new HttpEdgeError('AUTH_REQUIRED', 'Unauthorized'), 'gateway')).toEqual({ status: 401, body: { error: 'Unauthorized' } });
    expect(toResponse(new NoGatewayPluginError('nope'), 'gateway')).toEqual({ status: 502, body: { error: 'no_plugin', message: 'No plugin handles "nope"' } });
    expect(toResponse(new Error('boom') as never, 'gateway')).toEqual({ status: 500, body: { error: 'internal' } });
    // elsewhere the same code keeps the house's body
    expect(toResponse(new HttpEdgeError('AUTH_REQUIRED', 'Sign in'), undefined)).toEqual({ status: 401, body: { error: 'Sign in', code: 'AUTH_REQUIRED' } });
  });

  it("when an agent's answer failed, then one body tells it everywhere and its status is its code's on the agent family", () => {
    const told = (code: string) => {
      const body = agentFailureBody(code, 'stored text');
      return { ...toResponse(new AgentAnswerFailedError(body), 'agent'), frame: body };
    };
    expect(told('PROVIDER_ERROR')).toEqual({ status: 502, body: { error: 'stored text', code: 'PROVIDER_ERROR' }, frame: { error: 'stored text', code: 'PROVIDER_ERROR' } });
    expect(told('PROVIDER_UNAVAILABLE')).toMatchObject({ status: 503, body: { code: 'PROVIDER_NOT_CONFIGURED', reason: 'PROVIDER_UNAVAILABLE', error: expect.stringContaining('No AI model provider') } });
    expect(told('USAGE_EXHAUSTED')).toMatchObject({ status: 429, body: { code: 'USAGE_EXHAUSTED', error: 'stored text' } });
    expect(told('AGENT_NOT_RUNNING')).toMatchObject({ status: 409, body: { code: 'AGENT_NOT_RUNNING' } });
    expect(told('SUBSCRIPTION_REQUIRED')).toMatchObject({ status: 402 });
    expect(told('MODEL_RESTRICTED')).toMatchObject({ status: 403 });
    expect(told('RUNTIME_TIMEOUT')).toEqual({
      status: 502,
      body: { error: 'stored text', code: 'UPSTREAM_UNAVAILABLE', reason: 'RUNTIME_TIMEOUT' },
      frame: { error: 'stored text', code: 'UPSTREAM_UNAVAILABLE', reason: 'RUNTIME_TIMEOUT' },
    });
  });
});
