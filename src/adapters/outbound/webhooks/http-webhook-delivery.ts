import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { UpstreamUnavailableError } from '../../../application/errors.js';
import { WebhookTargetRefusedError, type WebhookDelivery, type WebhookRequest, type WebhookTargetPolicy } from '../../../application/ports/webhook-delivery.port.js';

/** Addresses a user's webhook must not reach: this host, private networks, link-local (cloud metadata), multicast, reserved. */
const FORBIDDEN = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) FORBIDDEN.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32]] as const) {
  FORBIDDEN.addSubnet(net, prefix, 'ipv6');
}

export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return FORBIDDEN.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return FORBIDDEN.check(mapped[1]!, 'ipv4');
  return FORBIDDEN.check(address, 'ipv6');
}

/**
 * Webhooks over node:http(s). The address check runs inside the socket's own DNS lookup, so the
 * address checked is the address connected to (a name cannot resolve safe for the check and
 * private for the connection). Redirects are not followed. The whole exchange is bounded by the
 * policy's `timeoutMs`. One instance serves every sender; each call brings its sender's policy.
 */
export class HttpWebhookDelivery implements WebhookDelivery {
  async deliver(request: WebhookRequest, policy: WebhookTargetPolicy): Promise<{ status: number }> {
    const { url } = request;
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) && !policy.allowPrivate && isForbiddenAddress(host)) throw new WebhookTargetRefusedError(`${host} is a private or reserved address`);
    let refused: WebhookTargetRefusedError | null = null;
    const lookup: LookupFunction = (hostname, options, callback) => {
      dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
        if (err) return callback(err, '', 0);
        const bad = policy.allowPrivate ? undefined : addresses.find((a) => isForbiddenAddress(a.address));
        if (bad) {
          refused = new WebhookTargetRefusedError(`${hostname} resolves to a private or reserved address`);
          return callback(refused, '', 0);
        }
        if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        return callback(null, addresses[0]!.address, addresses[0]!.family);
      });
    };
    const signals = [AbortSignal.timeout(policy.timeoutMs), ...(request.signal ? [request.signal] : [])];
    const signal = AbortSignal.any(signals);
    const client = url.protocol === 'https:' ? https : http;
    try {
      return await new Promise<{ status: number }>((resolve, reject) => {
        const req = client.request(
          url,
          { method: 'POST', headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)), 'user-agent': 'agent-host-webhook/1' }, lookup, signal },
          (res) => {
            // the answer's body is not needed: drain it, bounded by the same timeout
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(request.body);
      });
    } catch (err) {
      if (refused) throw refused;
      if (err instanceof WebhookTargetRefusedError) throw err;
      const timedOut = signal.aborted && !request.signal?.aborted;
      throw new UpstreamUnavailableError('webhook target', timedOut ? `The webhook target did not answer within ${policy.timeoutMs} ms` : 'The webhook target could not be reached', err);
    }
  }
}
