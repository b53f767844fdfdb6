import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cleanUpLater } from '../cleanup.js';

/** What a node's view of a transaction is read by: its receipt, and the transaction itself. */
const RECEIPT_READS = new Set(['eth_getTransactionReceipt', 'eth_getTransactionByHash']);

/**
 * One RPC URL over two nodes that disagree, as a load balancer in front of nodes at different
 * heights is: receipt reads go to `receiptsFrom`, every other call (nonces, broadcasts, balances) to
 * `rest`. `setReceiptsFrom` points the receipt reads elsewhere (the lagging node catching up).
 */
export async function startSplitNode(rest: string, receiptsFrom: string): Promise<{ url: string; setReceiptsFrom(url: string): void }> {
  let receipts = receiptsFrom;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    let method = '';
    try {
      method = String((JSON.parse(body.toString('utf8')) as { method?: string }).method);
    } catch {
      // a batch or garbage: the main node answers it
    }
    try {
      const answer = await fetch(RECEIPT_READS.has(method) ? receipts : rest, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    } catch {
      req.socket.destroy();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanUpLater(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setReceiptsFrom(url) {
      receipts = url;
    },
  };
}
