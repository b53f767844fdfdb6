/**
 * The code an agent wallet runs to pay this service per call with the published x402 client
 * (`@x402/fetch` and `@x402/evm` 2.27): `x402Client` with the `exact` EVM scheme, spend controls
 * that allow this service's token up to the chosen plugin's price, `wrapFetchWithPayment`, and the
 * `X-Payment-Method: mpp` header (without it an anonymous call is the card processor's 401, not a
 * 402). Plain JavaScript (an ES module, top-level await) that TypeScript also accepts.
 * test/unit/web/x402-snippet.test.ts holds it to the client the gateway's x402 tests run, and
 * test/e2e/pay-per-call-console.test.ts runs the copied text against the service.
 */

export interface SnippetTerms {
  /** The gateway's absolute URL (the discovery item's `resource`). */
  gatewayUrl: string;
  plugin: string;
  /** CAIP-2 network, `eip155:<chain id>`. */
  network: string;
  /** The token contract. */
  asset: string;
  /** The plugin's price in base units: the client pays no more than this per call. */
  amount: string;
}

/** An example body for each plugin (CONTRACT.md's gateway plugin bodies). */
export const EXAMPLE_BODIES: Readonly<Record<string, Record<string, unknown>>> = {
  'generate-text': { prompt: 'Hello' },
  agent: { task: 'Summarise https://example.com in one sentence' },
  tts: { text: 'Hello' },
  stt: { audio: '<base64 audio>', format: 'mp3' },
};

/** A single-quoted JavaScript string. */
const quoted = (v: string) => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** `{ plugin: 'x', prompt: 'y' }`: the body as an object literal (its values are strings). */
const objectLiteral = (o: Record<string, unknown>) => `{ ${Object.entries(o).map(([k, v]) => `${k}: ${quoted(String(v))}`).join(', ')} }`;

/** The snippet for one plugin, with this service's URL, network, token and price. */
export function x402FetchSnippet(t: SnippetTerms): string {
  const body = { plugin: t.plugin, ...(EXAMPLE_BODIES[t.plugin] ?? {}) };
  return [
    "import { x402Client, wrapFetchWithPayment } from '@x402/fetch';",
    "import { registerExactEvmScheme } from '@x402/evm/exact/client';",
    "import { privateKeyToAccount } from 'viem/accounts';",
    '',
    'const client = new x402Client();',
    'registerExactEvmScheme(client, { signer: privateKeyToAccount(process.env.PAYER_KEY) });',
    `// pay in this service's token, at most one ${t.plugin} call's price each time`,
    `client.setSpendControls({ allowedAssets: [{ network: ${quoted(t.network)}, asset: ${quoted(t.asset)}, maxAmountPerPayment: ${quoted(t.amount)} }] });`,
    'const pay = wrapFetchWithPayment(fetch, client);',
    '',
    `const res = await pay(${quoted(t.gatewayUrl)}, {`,
    "  method: 'POST',",
    '  // say you pay on chain: without an API key or a session the first answer is 401, not 402',
    "  headers: { 'Content-Type': 'application/json', 'X-Payment-Method': 'mpp' },",
    `  body: JSON.stringify(${objectLiteral(body)}),`,
    '});',
    'console.log(res.status, await res.text());',
    '',
  ].join('\n');
}
