/**
 * A gateway call over real HTTP as a streaming client makes it: reads the server-sent events until
 * `until` says it has enough, then leaves (closes the connection without reading on), or reads to
 * the end. Answers the status and the text it read.
 */
export async function streamedCall(
  url: string,
  opts: { body: unknown; headers?: Record<string, string>; until?: (text: string) => boolean },
): Promise<{ status: number; text: string; left: boolean }> {
  const controller = new AbortController();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...opts.headers },
    body: JSON.stringify(opts.body),
    signal: controller.signal,
  });
  if (!res.body) return { status: res.status, text: '', left: false };
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return { status: res.status, text, left: false };
    text += decoder.decode(value, { stream: true });
    if (opts.until?.(text)) {
      controller.abort();
      await reader.cancel().catch(() => undefined);
      return { status: res.status, text, left: true };
    }
  }
}
