import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the stand-in received it, with the form body decoded into flat keys. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  form: URLSearchParams;
}

export type Responder = (req: RecordedRequest) => { status: number; body: unknown } | 'hang';

/**
 * A local stand-in for the Stripe API on 127.0.0.1, port 0. It records every request and answers
 * with whatever the test's responder returns; 'hang' never answers (to exercise timeouts).
 */
export async function startFakeStripe(responder: Responder) {
  const requests: RecordedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        headers: req.headers,
        form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
      };
      requests.push(recorded);
      const answer = responder(recorded);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': 'req_fake' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    requests,
    api: { host: '127.0.0.1', port, protocol: 'http' as const },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Stripe-shaped answers. */
export const stripeJson = {
  customer: (id: string, email: string) => ({ id, object: 'customer', email, livemode: false, metadata: {} }),
  checkoutSession: (id: string, over: Record<string, unknown> = {}) => ({
    id,
    object: 'checkout.session',
    livemode: false,
    status: 'open',
    payment_status: 'unpaid',
    url: `https://checkout.stripe.com/c/pay/${id}`,
    ...over,
  }),
  error: (message: string, type = 'api_error') => ({ error: { message, type } }),
};
