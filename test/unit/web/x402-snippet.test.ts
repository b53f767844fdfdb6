import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { transform } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_BODIES, x402FetchSnippet } from '../../../web/src/components/gateway/x402-snippet.js';
import { GATEWAY_BODY_SCHEMAS } from '../../../src/application/gateway/plugin-bodies.js';

/**
 * The console's `@x402/fetch` code (web/src/components/gateway/x402-snippet.ts) against the
 * client the gateway's x402 tests run (test/support/gateway/x402-client.ts, driving
 * test/http/gateway-x402.test.ts): the installed 2.27 packages export what it imports, it makes
 * the same calls, and it says it pays on chain as those tests' requests do.
 * test/e2e/pay-per-call-console.test.ts runs the copied code against the service.
 */
const root = join(import.meta.dirname, '..', '..', '..');
const terms = { gatewayUrl: 'https://agents.example/api/v1/gateway', plugin: 'generate-text', network: 'eip155:8453', asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', amount: '10000' };
const snippet = x402FetchSnippet(terms);
const testClient = readFileSync(join(root, 'test', 'support', 'gateway', 'x402-client.ts'), 'utf8');
const x402Test = readFileSync(join(root, 'test', 'http', 'gateway-x402.test.ts'), 'utf8');

describe('the Pay per call page’s @x402/fetch code', () => {
  it('imports only what the installed @x402/fetch 2.27, @x402/evm and viem export, as functions', async () => {
    expect(JSON.parse(readFileSync(join(root, 'node_modules', '@x402', 'fetch', 'package.json'), 'utf8')).version).toMatch(/^2\.27\./);
    const imports = [...snippet.matchAll(/^import \{ ([^}]+) \} from '([^']+)';$/gm)].map((m) => ({ names: m[1]!.split(',').map((n) => n.trim()), from: m[2]! }));
    expect(imports.map((i) => i.from)).toEqual(['@x402/fetch', '@x402/evm/exact/client', 'viem/accounts']);
    for (const { names, from } of imports) {
      const mod = (await import(from)) as Record<string, unknown>;
      for (const name of names) expect({ from, name, type: typeof mod[name] }).toEqual({ from, name, type: 'function' });
    }
    // the x402Client it builds is the one the tests' client builds (@x402/core's, re-exported)
    expect((await import('@x402/fetch')).x402Client).toBe((await import('@x402/core/client')).x402Client);
  });

  it('makes the calls the gateway x402 tests’ client makes, and sends X-Payment-Method: mpp as their requests do', () => {
    for (const call of ['new x402Client()', 'registerExactEvmScheme(client, { signer', 'client.setSpendControls({ allowedAssets: [{ network: ', 'wrapFetchWithPayment(']) {
      expect({ call, inSnippet: snippet.includes(call), inTestClient: testClient.includes(call) }).toEqual({ call, inSnippet: true, inTestClient: true });
    }
    expect(x402Test).toContain(`'x-payment-method': 'mpp'`);
    expect(snippet).toContain(`headers: { 'Content-Type': 'application/json', 'X-Payment-Method': 'mpp' }`);
    expect(snippet).toContain(`await pay('https://agents.example/api/v1/gateway', {\n  method: 'POST',`);
    // its own token allowed, capped at this plugin's price
    expect(snippet).toContain(`allowedAssets: [{ network: 'eip155:8453', asset: '${terms.asset}', maxAmountPerPayment: '10000' }]`);
  });

  it('is a valid module in JavaScript and TypeScript, whatever the URL holds', async () => {
    for (const code of [snippet, x402FetchSnippet({ ...terms, gatewayUrl: "https://it's.example/a\\b" })]) {
      await transform(code, { loader: 'js', format: 'esm' });
      await transform(code, { loader: 'ts', format: 'esm' });
    }
    expect(x402FetchSnippet({ ...terms, gatewayUrl: "https://it's.example/" })).toContain(`pay('https://it\\'s.example/', {`);
  });

  it('sends each plugin a body its schema accepts (stt’s audio placeholder aside)', () => {
    expect(Object.keys(EXAMPLE_BODIES).sort()).toEqual(Object.keys(GATEWAY_BODY_SCHEMAS).sort());
    for (const [plugin, schema] of Object.entries(GATEWAY_BODY_SCHEMAS)) {
      const body = plugin === 'stt' ? { ...EXAMPLE_BODIES[plugin], audio: 'AAAA' } : EXAMPLE_BODIES[plugin];
      expect({ plugin, ok: schema.safeParse(body).success }).toEqual({ plugin, ok: true });
      expect(x402FetchSnippet({ ...terms, plugin })).toContain(`JSON.stringify({ plugin: '${plugin}', `);
    }
  });
});
