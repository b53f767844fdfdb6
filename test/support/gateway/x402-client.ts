import type { FastifyInstance } from 'fastify';
import { x402Client, x402HTTPClient } from '@x402/core/client';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { decodePaymentResponseHeader, wrapFetchWithPayment } from '@x402/fetch';
import type { Address, Hex } from 'viem';

/** The signer x402's EVM client asks for: an address and EIP-712 signing (an EOA, or a smart wallet's owner). */
export interface X402Signer {
  readonly address: Address;
  signTypedData(message: { domain: Record<string, unknown>; types: Record<string, unknown>; primaryType: string; message: Record<string, unknown> }): Promise<Hex>;
}

/** Every request a paying fetch sent, with its headers, and the answers it got. */
export interface FetchLog {
  readonly sent: { headers: Headers; body: string }[];
}

/**
 * `fetch` over the in-process app (app.inject), so the published x402 client drives the real
 * routes without a socket; each request's headers are kept, a paid one's `PAYMENT-SIGNATURE` with them.
 */
export function injectFetch(app: FastifyInstance, log: FetchLog = { sent: [] }) {
  const fetchImpl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const body = await request.text();
    log.sent.push({ headers: new Headers(request.headers), body });
    const url = new URL(request.url);
    const res = await app.inject({
      method: request.method as 'POST',
      url: url.pathname + url.search,
      headers: Object.fromEntries(request.headers.entries()),
      ...(body ? { payload: body } : {}),
    });
    const headers = new Headers();
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : String(v));
    return new Response(res.statusCode === 204 ? null : res.body, { status: res.statusCode, headers });
  };
  return { fetch: fetchImpl as typeof fetch, log };
}

/**
 * What an agent wallet does: `@x402/fetch` with `@x402/evm`'s `exact` scheme, its spend controls
 * told to allow the local test token (a token its defaults do not know).
 */
export function payingFetch(app: FastifyInstance, signer: X402Signer, token: Address) {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer });
  client.setSpendControls({ allowedAssets: [{ network: 'eip155:8453', asset: token }] });
  const { fetch: base, log } = injectFetch(app);
  return { fetch: wrapFetchWithPayment(base, client), log, http: new x402HTTPClient(client) };
}

export { decodePaymentResponseHeader };
