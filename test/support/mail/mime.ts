/**
 * Just enough MIME to read what nodemailer sends: folded headers, encoded words, multipart,
 * base64 and quoted-printable. `raw` is the message as a latin1 string (one char per byte).
 */

export interface ParsedMime {
  headers: Map<string, string>;
  text: string | undefined;
  html: string | undefined;
}

export function parseMime(raw: string): ParsedMime {
  const { headers, body } = splitHeaders(raw);
  const leaves: { type: string; content: string }[] = [];
  collectLeaves(headers, body, leaves);
  const first = (type: string) => leaves.find((l) => l.type === type)?.content;
  return { headers, text: first('text/plain'), html: first('text/html') };
}

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const cut = raw.indexOf('\r\n\r\n');
  const head = cut < 0 ? raw : raw.slice(0, cut);
  const body = cut < 0 ? '' : raw.slice(cut + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(utf8(line.slice(colon + 1).trim())));
  }
  return { headers, body };
}

function collectLeaves(headers: Map<string, string>, body: string, out: { type: string; content: string }[]): void {
  const { type, params } = contentType(headers.get('content-type'));
  if (type.startsWith('multipart/') && params.boundary) {
    const parts = body.split(`--${params.boundary}`).slice(1);
    for (const part of parts) {
      if (part.startsWith('--')) break; // the closing delimiter
      const sub = splitHeaders(part.replace(/^\r\n/, ''));
      collectLeaves(sub.headers, sub.body.replace(/\r\n$/, ''), out);
    }
    return;
  }
  const bytes = decodeTransfer(body, headers.get('content-transfer-encoding') ?? '7bit');
  out.push({ type, content: bytes.toString('utf8').replace(/\r\n/g, '\n') });
}

function contentType(value = 'text/plain'): { type: string; params: Record<string, string> } {
  const [type = '', ...rest] = value.split(';');
  const params: Record<string, string> = {};
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq > 0) params[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim().replace(/^"|"$/g, '');
  }
  return { type: type.trim().toLowerCase(), params };
}

function decodeTransfer(body: string, encoding: string): Buffer {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64');
    case 'quoted-printable':
      return qp(body.replace(/=\r\n/g, ''));
    default:
      return Buffer.from(body, 'latin1');
  }
}

function qp(s: string): Buffer {
  return Buffer.from(s.replace(/=([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1');
}

/** RFC 2047 encoded words; whitespace between two adjacent words is dropped. */
function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, _charset: string, enc: string, text: string) =>
      (enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : qp(text.replace(/_/g, ' '))).toString('utf8'),
    );
}

function utf8(latin1: string): string {
  return Buffer.from(latin1, 'latin1').toString('utf8');
}
