import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { errorBody } from '../schemas/error.schema.js';
import { authModeOf, type AuthMode } from '../plugins/authentication.js';
import { packageInfo } from './document-info.js';
import { nameOperations } from './operation-names.js';
import type { RouteDocumentation } from './route-documentation.js';
import { TAGS, tagOf } from './tags.js';

export const DOCS_PREFIX = '/docs';
export const DOCUMENT_URL = '/api/openapi.json';

const zodTransform = createJsonSchemaTransform({ skipList: [] });
const isDocsRoute = (url: string) => url === DOCS_PREFIX || url.startsWith(`${DOCS_PREFIX}/`);

/** Who may call a route, as the document's `security`: the same reading as the authentication plugin. */
function securityOf(route: RouteOptions): Record<string, string[]>[] | undefined {
  if (route.url.startsWith('/api/v1/')) return [{}, { session: [] }, { bearer: [] }, { payment: [] }];
  const mode = authModeOf(route.config as { auth?: AuthMode } | undefined);
  if (mode === 'none') return [];
  if (mode === 'bearer') return [{ bearer: [] }];
  if (mode === 'optional') return [{}, { session: [] }, { bearer: [] }];
  return undefined; // the document's default: a session or a Bearer credential
}

const pick = <T extends object, K extends keyof T>(o: T, keys: K[]) => Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]])) as Pick<T, K>;

/**
 * The zod transform gives each schema a placeholder `$id`; @fastify/swagger drops it from the
 * responses it builds, but not from `content` it is handed whole.
 */
const withoutId = (schema: unknown) => {
  if (typeof schema !== 'object' || schema === null) return schema;
  const { $id: _id, ...rest } = schema as Record<string, unknown>;
  return rest;
};

/** A status answered in other media types than JSON: its response becomes `{content: {type: {schema}}}`. */
function withMediaTypes(schema: Record<string, unknown>, media: NonNullable<RouteDocumentation['media']>) {
  const responses = (schema.response ??= {}) as Record<string, unknown>;
  for (const [status, types] of Object.entries(media)) {
    const own = responses[status];
    const content = Object.fromEntries(Object.entries(types).map(([type, s]) => [type, { schema: withoutId(s === 'response' ? own : s) }]));
    responses[status] = { description: 'Default Response', content };
  }
}

/** Response headers, as @fastify/swagger reads them: `headers` beside the status's schema. */
function withResponseHeaders(schema: Record<string, unknown>, headers: NonNullable<RouteDocumentation['responseHeaders']>) {
  const responses = (schema.response ??= {}) as Record<string, Record<string, unknown>>;
  for (const [status, named] of Object.entries(headers)) {
    const response = (responses[status] ??= { description: 'Default Response' });
    response.headers = Object.fromEntries(Object.entries(named).map(([name, description]) => [name, { type: 'string', description }]));
  }
}

type OpenApiObject = { paths?: Record<string, Record<string, unknown>>; components?: { schemas?: Record<string, unknown> } };

/**
 * The zod transform writes each shared schema twice, as the output it answers (`Agent`) and as an
 * input (`AgentInput`); only request bodies refer to the input forms, so those no body uses are left
 * out rather than listed as components nothing refers to.
 */
function withoutUnusedInputSchemas(document: OpenApiObject): OpenApiObject {
  const schemas = document.components?.schemas;
  if (!schemas) return document;
  for (const name of Object.keys(schemas).filter((n) => n.endsWith('Input'))) {
    const { [name]: _own, ...others } = schemas; // its own `$id` names it too
    if (!JSON.stringify({ ...document, components: { ...document.components, schemas: others } }).includes(`"#/components/schemas/${name}"`)) delete schemas[name];
  }
  return document;
}

/**
 * Part one, before any route: every route gets the shared error body for its 4xx and 5xx answers
 * (the error handler is the one place errors are written, so its shape is declared in one place
 * too; a route's own entry for a status wins), the reference's own routes are public, and
 * @fastify/swagger starts collecting routes with the zod transforms.
 */
export const openApiDocument = fp(
  async (app: FastifyInstance, o: { sessionCookie: string }) => {
    app.addHook('onRoute', (route) => {
      if (isDocsRoute(route.url)) route.config = { ...route.config, auth: 'none' } as typeof route.config;
      const schema = (route.schema ??= {}) as { response?: Record<string, unknown>; hide?: boolean };
      if (schema.hide) return;
      schema.response = { '4xx': errorBody, '5xx': errorBody, ...schema.response };
    });
    const info = packageInfo();
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: info.name, version: info.version, description: 'The agent-host HTTP API. Errors answer `{error, code?, details?}` (see the `Error` schema).' },
        // Relative: the document describes the service that serves it, wherever that is.
        servers: [{ url: '/', description: 'this service' }],
        tags: TAGS.map((t) => ({ name: t.name, description: t.description })),
        components: {
          securitySchemes: {
            session: { type: 'apiKey', in: 'cookie', name: o.sessionCookie, description: 'The session cookie set by sign-in; state-changing calls also send the CSRF token in `x-csrf-token`' },
            bearer: { type: 'http', scheme: 'bearer', description: 'An API key (`sk_...`) or a JWT from POST /api/auth/token' },
            payment: {
              type: 'http',
              scheme: 'Payment',
              description:
                'An MPP payment credential (gateway only), the weaker fallback beside x402 (the `PAYMENT-SIGNATURE` header: an EIP-3009 ' +
                'authorization the service settles, which moves nothing unless the call is accepted): `Authorization: Payment <credential>`, the credential being the JSON ' +
                '`{"scheme": "Payment", "transaction": "0x<hash of the mined ERC-20 transfer>", "challengeNonce": "<the 402\'s mpp.nonce>", ' +
                '"signature": "0x<EIP-191 personal_sign of the exact challengeNonce text by the address that sent the transfer>"}`, ' +
                'as is or base64url-encoded. A smart wallet signs through ERC-1271, or ERC-6492 before it is deployed. Without the ' +
                "payer's signature the answer is a fresh 402 and the transfer stays claimable by its payer. " +
                "Or, as mppx sends it for MPP's `evm` method (with a settler): base64url JSON `{challenge: <the 402's mppx challenge echoed>, payload: " +
                '{type: "authorization", from, to, value, validAfter, validBefore, nonce: keccak256(challenge.id + realm), signature}, source}`, an EIP-3009 ' +
                '`transferWithAuthorization` signed by the payer, which the service settles before it serves.',
            },
          },
        },
        security: [{ session: [] }, { bearer: [] }],
      },
      transform: (input) => {
        const documentation = (input.route.config as { openapi?: RouteDocumentation } | undefined)?.openapi;
        const declared = documentation ? { ...input, schema: { ...input.schema, ...pick(documentation, ['body', 'headers']) } } : input;
        const { schema, url } = zodTransform(declared as never) as { schema: Record<string, unknown> | undefined; url: string };
        if (schema?.hide) return { schema, url };
        if (documentation?.media) withMediaTypes(schema!, documentation.media);
        if (documentation?.responseHeaders) withResponseHeaders(schema!, documentation.responseHeaders);
        const security = securityOf(input.route);
        return { url, schema: { ...schema, tags: (schema?.tags as string[] | undefined) ?? [tagOf(url)], ...(security ? { security } : {}) } };
      },
      transformObject: (input) => nameOperations(withoutUnusedInputSchemas(jsonSchemaTransformObject(input) as OpenApiObject)) as never,
    });
  },
  { name: 'openapi-document' },
);

/**
 * Part two, after authentication: the document at /api/openapi.json and the interactive reference
 * at /docs. The page loads only its own assets from this service.
 */
export const openApiReference = fp(
  async (app: FastifyInstance) => {
    app.get(DOCUMENT_URL, { config: { auth: 'none' }, schema: { hide: true } }, async () => app.swagger());
    await app.register(swaggerUi, {
      routePrefix: DOCS_PREFIX,
      uiConfig: { validatorUrl: null, deepLinking: true },
      // swagger-ui's own policy (its inline script's and style's hashes) with every third-party
      // source taken out: fonts and styles from any https origin, the online validator's badge.
      staticCSP: true,
      transformStaticCSP: (header) =>
        `${header
          .replace(/ https:/g, '')
          .replace(/ validator\.swagger\.io/g, '')
          .replace(/frame-ancestors 'self'/, "frame-ancestors 'none'")
          .replace(/ ?upgrade-insecure-requests;?/, '')
          .trim()} connect-src 'self'; form-action 'self';`,
    });
  },
  { name: 'openapi-reference', dependencies: ['openapi-document'] },
);
