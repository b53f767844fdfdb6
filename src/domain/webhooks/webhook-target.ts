/** The events an endpoint may subscribe to (spec "Events", CONTRACT.md section 7). */
export const WEBHOOK_EVENT_TYPES = ['user.created', 'user.updated', 'user.deleted'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const isWebhookEventType = (t: string): t is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(t);

/**
 * Whether an address is one a webhook must not reach unless the operator opted in: loopback,
 * private ranges, link-local (cloud metadata lives there), carrier-grade NAT, unspecified,
 * multicast and their IPv6 forms (IPv4-mapped included).
 */
export function isPrivateAddress(ip: string): boolean {
  const v = ipVersion(ip);
  if (v === 4) {
    const [a = 0, b = 0] = ip.split('.').map(Number);
    return a === 0 || a === 10 || a === 127 || a >= 224 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
  }
  if (v === 6) {
    const x = ip.toLowerCase();
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(x);
    if (mapped) return isPrivateAddress(mapped[1]!);
    return x === '::' || x === '::1' || /^f[cd]/.test(x) || /^fe[89ab]/.test(x) || x.startsWith('ff');
  }
  return true;
}

export type WebhookUrlProblem = 'not-a-url' | 'scheme' | 'credentials' | 'private-target';

/**
 * Checks a target URL as registered: http(s) only, no credentials in it, and (unless private
 * targets are allowed) no literal private address or `localhost`. Names that resolve to private
 * addresses are caught again at delivery, when they are resolved.
 */
export function webhookUrlProblem(raw: string, allowPrivate: boolean): WebhookUrlProblem | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not-a-url';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'scheme';
  if (url.username || url.password) return 'credentials';
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return 'private-target';
  if (ipVersion(host) && isPrivateAddress(host)) return 'private-target';
  return null;
}

/**
 * The delivery after `attempts` tries: delivered on a 2xx, else retried until the queue's retries
 * are spent (`retryLimit` retries after the first try), then dead.
 */
export function deliveryStatusAfter(attempts: number, ok: boolean, retryLimit: number): 'delivered' | 'retrying' | 'dead' {
  if (ok) return 'delivered';
  return attempts > retryLimit ? 'dead' : 'retrying';
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** 4, 6, or 0 when the text is not an IP literal (a host name). */
function ipVersion(s: string): 0 | 4 | 6 {
  if (IPV4.test(s)) return 4;
  return s.includes(':') && /^[0-9a-f:.]+$/i.test(s) ? 6 : 0;
}
