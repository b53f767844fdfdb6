import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../src/bootstrap/openapi-document.js';
import { DocumentedResponses } from '../../support/documented-responses.js';

/**
 * The test helpers hold every answer to the OpenAPI document (test-app.ts): this is what they catch,
 * on the service's own document.
 */
const responses = new DocumentedResponses((await openApiDocument()) as never);
const json = 'application/json; charset=utf-8';

describe('answers held to the OpenAPI document', () => {
  it('an answer as documented passes: the success body, an error body for a 4xx, Prometheus text', () => {
    expect(responses.mismatch('GET', '/api/memory?agentId=a', 200, json, JSON.stringify({ memory: { k: [1] }, agentId: 'a', count: 1, lastUpdated: null }))).toBeNull();
    expect(responses.mismatch('POST', '/api/memory', 400, json, JSON.stringify({ error: 'bad', code: 'VALIDATION_ERROR', details: [] }))).toBeNull();
    expect(responses.mismatch('GET', '/metrics', 200, 'text/plain; version=0.0.4; charset=utf-8', '# HELP x\n')).toBeNull();
  });

  it('a body the schema refuses, a status or media type it does not declare, or JSON that is not JSON: each named', () => {
    expect(responses.mismatch('GET', '/api/memory?agentId=a', 200, json, JSON.stringify({ memory: 'text', agentId: 'a', count: 1, lastUpdated: null }))).toMatch(/GET \/api\/memory answered 200 with a body the document's 200 schema refuses: \/memory must be object/);
    expect(responses.mismatch('GET', '/api/memory', 200, json, JSON.stringify({ memory: {}, agentId: 'a', count: 1, lastUpdated: null, extra: 1 }))).toMatch(/additional properties \(extra\)/);
    expect(responses.mismatch('POST', '/api/memory', 400, json, JSON.stringify({ code: 'VALIDATION_ERROR' }))).toMatch(/must have required property 'error'/);
    expect(responses.mismatch('GET', '/api/memory', 204, json, '')).toMatch(/a status the document does not declare/);
    expect(responses.mismatch('GET', '/metrics', 200, json, '{}')).toMatch(/a media type the document does not declare/);
    expect(responses.mismatch('GET', '/api/memory', 200, json, '{oops')).toMatch(/not JSON/);
  });

  it('a path parameter route is found, a literal segment winning over a parameter; an unknown route is not held', () => {
    expect(responses.mismatch('GET', '/api/agents/provision', 200, json, '{"nothing": "like it"}')).toMatch(/GET \/api\/agents\/provision answered 200/);
    expect(responses.mismatch('GET', '/api/agents/6f1c', 200, json, '{}')).toMatch(/GET \/api\/agents\/\{id\} answered 200/);
    expect(responses.mismatch('GET', '/api/no-such-route', 404, json, '{}')).toBeNull();
  });
});
