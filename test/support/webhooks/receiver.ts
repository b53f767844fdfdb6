import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedEvent {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** What Webhook.verify said with the secret known for the path at that moment. */
  verified: boolean;
  answered: number;
}

/**
 * A local webhook receiver: verifies each request with `standardwebhooks`' Webhook.verify against
 * the secret registered for its path, and answers each message (by webhook-id) what the path's
 * script says (e.g. 500, 500, 200), repeating the script's last answer once it runs out.
 */
export async function startWebhookReceiver() {
  const received: ReceivedEvent[] = [];
  const secrets = new Map<string, string>();
  const scripts = new Map<string, number[]>();
  const running = new Map<string, number[]>();
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const path = req.url ?? '/';
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    let verified = false;
    try {
      new Webhook(secrets.get(path) ?? 'whsec_AAAA').verify(body, headers);
      verified = true;
    } catch {
      verified = false;
    }
    // each message (webhook-id) runs through the path's script on its own
    const key = `${path} ${headers['webhook-id'] ?? ''}`;
    if (!running.has(key)) running.set(key, [...(scripts.get(path) ?? [200])]);
    const script = running.get(key)!;
    const answer = script.length > 1 ? script.shift()! : script[0]!;
    received.push({ path, headers, body, verified, answered: answer });
    res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'failing on purpose');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    received,
    /** Registers a path: its secret and its answers. */
    route(path: string, secret: string, answers: number[] = [200]) {
      secrets.set(path, secret);
      scripts.set(path, [...answers]);
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
