import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake does with the next calls. */
export type FakeAudioBehaviour =
  /** Answers as OpenAI does: speech as raw audio bytes, transcription as `verbose_json` (`duration` omitted when null). */
  | { readonly kind: 'reply'; readonly text?: string; readonly duration?: number | null; readonly audioBytes?: number }
  /** OpenAI's JSON error body with this status. */
  | { readonly kind: 'error'; readonly status: number }
  /** Never answers (the client's timeout must fire). */
  | { readonly kind: 'hang' };

export interface AudioRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** Speech: the JSON body. */
  readonly json?: any;
  /** Transcription: the multipart fields, the file described by name, type and size. */
  readonly form?: { readonly fields: Record<string, string>; readonly file: { name: string; type: string; size: number } | null };
}

export interface FakeAudioServer {
  readonly baseUrl: string;
  readonly requests: AudioRequest[];
  setBehaviour(b: FakeAudioBehaviour): void;
  close(): Promise<void>;
}

const MIME: Record<string, string> = { mp3: 'audio/mpeg', opus: 'audio/ogg', aac: 'audio/aac', flac: 'audio/flac', wav: 'audio/wav', pcm: 'audio/pcm' };

/**
 * OpenAI's audio endpoints on 127.0.0.1 (`/v1/audio/speech`, `/v1/audio/transcriptions`), speaking
 * the real wire formats: speech takes JSON and answers the audio bytes; transcription takes
 * multipart/form-data (parsed here with the platform's own FormData reader, so a malformed upload
 * fails as it would at OpenAI: 400) and answers JSON.
 */
export async function startFakeOpenAiAudioServer(opts: { apiKey: string }): Promise<FakeAudioServer> {
  let behaviour: FakeAudioBehaviour = { kind: 'reply' };
  const requests: AudioRequest[] = [];
  const hanging = new Set<import('node:http').ServerResponse>();

  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(parts);
      const path = req.url ?? '/';
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${opts.apiKey}`) {
        return send(401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
      }
      if (req.method === 'POST' && path === '/v1/audio/speech') {
        let json: any;
        try {
          json = JSON.parse(raw.toString('utf8'));
        } catch {
          return send(400, { error: { message: 'We could not parse the JSON body of your request.', type: 'invalid_request_error', param: null, code: null } });
        }
        requests.push({ path, headers: req.headers, json });
        if (!(json.model && json.input && json.voice)) return send(400, { error: { message: "Missing required parameter: 'input'.", type: 'invalid_request_error', param: 'input', code: null } });
        return respond(res, behaviour, () => {
          const b: { audioBytes?: number } = behaviour.kind === 'reply' ? behaviour : {};
          res.writeHead(200, { 'content-type': MIME[json.response_format ?? 'mp3'] ?? 'audio/mpeg', 'transfer-encoding': 'chunked' });
          res.end(randomBytes(b.audioBytes ?? 2048));
        });
      }
      if (req.method === 'POST' && path === '/v1/audio/transcriptions') {
        let form: FormData;
        try {
          form = await new Request('http://fake/', { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body: raw }).formData();
        } catch {
          return send(400, { error: { message: 'Could not parse multipart form', type: 'invalid_request_error', param: null, code: null } });
        }
        const fields: Record<string, string> = {};
        let file: { name: string; type: string; size: number } | null = null;
        for (const [k, v] of form.entries()) {
          if (typeof v === 'string') fields[k] = v;
          else if (k === 'file') file = { name: v.name, type: v.type, size: v.size };
        }
        requests.push({ path, headers: req.headers, form: { fields, file } });
        if (!file || !fields.model) return send(400, { error: { message: "Missing required parameter: 'file'.", type: 'invalid_request_error', param: 'file', code: null } });
        return respond(res, behaviour, () => {
          const b: { text?: string; duration?: number | null } = behaviour.kind === 'reply' ? behaviour : {};
          const text = b.text ?? 'Hello from the audio.';
          const duration = b.duration === undefined ? 8.47 : b.duration;
          send(200, {
            task: 'transcribe',
            language: 'english',
            ...(duration === null ? {} : { duration }),
            text,
            segments: [{ id: 0, seek: 0, start: 0, end: duration ?? 1, text, tokens: [50364], temperature: 0, avg_logprob: -0.2, compression_ratio: 1.1, no_speech_prob: 0.01 }],
          });
        });
      }
      send(404, { error: { message: `Invalid URL (${req.method} ${path})`, type: 'invalid_request_error', param: null, code: null } });
    });
  });

  function respond(res: import('node:http').ServerResponse, b: FakeAudioBehaviour, ok: () => void): void {
    if (b.kind === 'hang') {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if (b.kind === 'error') {
      res.writeHead(b.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null } }));
      return;
    }
    ok();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    setBehaviour: (b) => {
      behaviour = b;
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
