/** One server-sent event: `event` is the `event:` field when the server named one. */
export interface SseEvent {
  readonly event: string | undefined;
  readonly data: string;
}

/**
 * Parses a `text/event-stream` body (a web stream, or a Node response, both async iterables of
 * bytes; or pieces of text already decoded). Lines end in LF or CRLF (what every AI vendor sends; a lone CR is not treated as a line
 * end). Comments (`:`) and fields other than `event` and `data` are skipped; multi-line data is
 * joined with LF as the standard says. `onChunk` runs for every network chunk, so the caller can
 * restart an idle timer. Stopping iteration cancels the body (a Node response is destroyed).
 */
export async function* readSse(body: AsyncIterable<Uint8Array | string>, onChunk: () => void): AsyncGenerator<SseEvent> {
  const reader = body[Symbol.asyncIterator]();
  const decoder = new TextDecoder();
  let buffer = '';
  let event: string | undefined;
  let data: string[] = [];
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await reader.next();
      if (done) {
        finished = true;
        buffer += decoder.decode();
        // a body ending without the final blank line still dispatches its last event
        buffer += '\n\n';
      } else {
        onChunk();
        buffer += typeof value === 'string' ? value : decoder.decode(value, { stream: true });
      }
      let newline: number;
      while ((newline = buffer.indexOf('\n')) !== -1) {
        const line = buffer.charCodeAt(newline - 1) === 13 ? buffer.slice(0, newline - 1) : buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (line === '') {
          if (data.length > 0) yield { event, data: data.join('\n') };
          event = undefined;
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const name = colon === -1 ? line : line.slice(0, colon);
        const raw = colon === -1 ? '' : line.slice(colon + 1);
        const fieldValue = raw.startsWith(' ') ? raw.slice(1) : raw;
        if (name === 'data') data.push(fieldValue);
        else if (name === 'event') event = fieldValue;
      }
      if (finished) return;
    }
  } finally {
    if (!finished) {
      // the consumer left early or the read failed: release the connection instead of draining it
      reader.return?.().catch(() => undefined /* the stream already errored; nothing to release */);
    }
  }
}
