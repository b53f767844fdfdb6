import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

// ajv-formats is CommonJS: its default export arrives wrapped once more under ESM
type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

type Media = Record<string, { schema?: unknown }>;
type Operation = { responses?: Record<string, { content?: Media }> };
type Document = { paths: Record<string, Record<string, Operation>> };

const DOCUMENT_ID = 'openapi.json';

/** A JSON pointer segment. */
const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** The document with the zod transform's placeholder `$id`s taken out: they are no schema ids. */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== '$id').map(([k, v]) => [k, withoutIds(v)]));
}

/**
 * Holds the answers of a running service to its own OpenAPI document: the status must be one the
 * operation declares (exactly, or its `4XX`/`5XX` class), the media type one declared for it, and a
 * JSON body valid against the declared schema. The schemas are the document's own JSON Schema
 * 2020-12 (OpenAPI 3.1), checked with Ajv, the validator Fastify itself uses.
 */
export class DocumentedResponses {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly routes: { method: string; path: string; pattern: RegExp; literal: number }[];

  constructor(private readonly document: Document) {
    addFormats(this.ajv);
    this.ajv.addSchema(withoutIds(document) as object, DOCUMENT_ID);
    this.routes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => ({
        method: method.toUpperCase(),
        path,
        pattern: new RegExp(`^${path.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('[^/]+')}$`),
        literal: path.replace(/\{[^}]+\}/g, '').length,
      })),
    );
  }

  /** The operation a request reaches: a literal segment wins over a parameter, as in the router. */
  private operationOf(method: string, url: string) {
    const path = url.split('?')[0]!;
    const found = this.routes.filter((r) => r.method === method && r.pattern.test(path)).sort((a, b) => b.literal - a.literal)[0];
    return found && { path: found.path, method: found.method.toLowerCase() };
  }

  /** What is wrong with the answer, or null when the document describes it (or documents no such route). */
  mismatch(method: string, url: string, status: number, contentType: string | undefined, body: string): string | null {
    const op = this.operationOf(method.toUpperCase(), url);
    if (!op) return null; // not an operation of the document: an unknown URL, the reference itself, the web console
    const responses = this.document.paths[op.path]![op.method]!.responses ?? {};
    const declared = [String(status), `${String(status)[0]}XX`, 'default'].find((s) => responses[s]);
    const where = `${method.toUpperCase()} ${op.path} answered ${status}`;
    if (!declared) return `${where}, a status the document does not declare (it has ${Object.keys(responses).join(', ')})`;
    const content = responses[declared]!.content;
    if (!content || body === '') return null; // nothing declared (a redirect, 204) or nothing sent
    const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
    const mediaType = Object.keys(content).find((m) => m.split(';')[0]!.trim().toLowerCase() === type);
    if (!mediaType) return `${where} with ${type || 'no content type'}, a media type the document does not declare for it (${Object.keys(content).join(', ')})`;
    if (type !== 'application/json') return null; // text (Prometheus, event streams): the media type is what is declared
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return `${where} with a body that is not JSON: ${body.slice(0, 200)}`;
    }
    const validate = this.validatorFor(op.path, op.method, declared, mediaType);
    if (validate(value)) return null;
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(body)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`);
    return `${where} with a body the document's ${declared} schema refuses: ${errors.join('; ')}; body: ${body.slice(0, 300)}`;
  }

  private validatorFor(path: string, method: string, status: string, mediaType: string): ValidateFunction {
    const ref = `${DOCUMENT_ID}#/paths/${pointer(path)}/${method}/responses/${status}/content/${pointer(mediaType)}/schema`;
    let validate = this.validators.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.validators.set(ref, validate);
    }
    return validate;
  }
}

/**
 * From now on every `app.inject` answer (so every `call` of http-client.ts too) is held to the
 * app's OpenAPI document: an answer the document does not describe fails the request's promise,
 * and so the test that made it.
 */
export function checkResponsesAgainstDocument(app: FastifyInstance): void {
  const responses = new DocumentedResponses(app.swagger() as unknown as Document);
  const inject = app.inject.bind(app) as (opts: InjectOptions | string) => Promise<LightMyRequestResponse>;
  const checked = async (opts: InjectOptions | string) => {
    const res = await inject(opts);
    const method = typeof opts === 'string' ? 'GET' : (opts.method ?? 'GET');
    const url = typeof opts === 'string' ? opts : typeof opts.url === 'string' ? opts.url : (opts.url?.pathname ?? opts.path ?? '/');
    if (String(method).toUpperCase() === 'HEAD') return res;
    const wrong = responses.mismatch(String(method), String(url), res.statusCode, res.headers['content-type'] as string | undefined, res.body);
    if (wrong) throw new Error(`The answer does not match the OpenAPI document: ${wrong}`);
    return res;
  };
  // the chain form (`app.inject()` with no options) passes through unchecked
  app.inject = ((opts?: InjectOptions | string, callback?: (err: Error | null, res?: LightMyRequestResponse) => void) => {
    if (opts === undefined) return (inject as unknown as () => unknown)();
    if (callback) return void checked(opts).then((r) => callback(null, r), (e: Error) => callback(e));
    return checked(opts);
  }) as typeof app.inject;
}
