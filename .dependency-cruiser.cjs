/**
 * The layering of the hexagon, checked in CI (`npm run lint:layers`, run by .ci/run):
 * the domain depends on nothing outward, use cases depend only on the domain and their ports,
 * inbound adapters never reach outbound ones, and nothing imports in a circle.
 * Only src/bootstrap wires adapters together.
 *
 * TypeScript 7 has no compiler API, so dependency-cruiser reads the sources through babel's parser
 * (`.babelrc.layers.json`: no transform, so `import type` counts like any import), and the files
 * are listed explicitly (`find src -name '*.ts'`): it does not scan `.ts` on its own without the
 * TypeScript API.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'src/domain is plain TypeScript: it imports only itself (no layer above it, no npm package, no Node API).',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { pathNot: '^src/domain/' },
    },
    {
      name: 'application-has-no-adapters',
      comment: 'Use cases reach the outside only through ports: no adapter, no bootstrap.',
      severity: 'error',
      from: { path: '^src/application/' },
      to: { path: '^src/(adapters|bootstrap)/' },
    },
    {
      name: 'application-has-no-frameworks',
      comment: 'No web framework, database driver, vendor SDK or schema library in use cases.',
      severity: 'error',
      from: { path: '^src/application/', pathNot: '^src/application/(skills/|gateway/plugin-bodies\\.ts$)' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'], path: 'node_modules/(fastify|@fastify/|fastify-|kysely|pg|pg-boss|stripe|zod|ioredis|nodemailer|viem|siwe|jose|argon2|bcryptjs|pino)([/]|$)' },
    },
    {
      name: 'skills-have-only-zod',
      comment:
        "A skill's contract is its zod schemas (SkillAction.input): the HTTP edge and the model's tools validate with the same schema and derive the manifest's JSON schema from it. So src/application/skills may use zod, and nothing else of the list above. So may the gateway plugins' bodies (gateway/plugin-bodies.ts), for the same reason: CallGatewayPlugin checks a body with its plugin's schema before any payment, and the OpenAPI document is derived from the same schemas (decision 0405).",
      severity: 'error',
      from: { path: '^src/application/(skills/|gateway/plugin-bodies\\.ts$)' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'], path: 'node_modules/(fastify|@fastify/|fastify-|kysely|pg|pg-boss|stripe|ioredis|nodemailer|viem|siwe|jose|argon2|bcryptjs|pino)([/]|$)' },
    },
    {
      name: 'inbound-never-reaches-outbound',
      comment: 'HTTP routes and job handlers call use cases; they never import an outbound adapter.',
      severity: 'error',
      from: { path: '^src/adapters/inbound/' },
      to: { path: '^src/adapters/outbound/' },
    },
    {
      name: 'outbound-never-reaches-inbound',
      severity: 'error',
      from: { path: '^src/adapters/outbound/' },
      to: { path: '^src/adapters/inbound/' },
    },
    {
      name: 'agent-host-stands-alone',
      comment:
        "src/agent-host is a separate program (forked by the process runtime, the whole of the docker image): it imports only itself, Node's own modules and src/shared. docker/agent-host.Dockerfile copies exactly these.",
      severity: 'error',
      from: { path: '^src/agent-host/' },
      to: { pathNot: '^src/(agent-host|shared)/', dependencyTypesNot: ['core'] },
    },
    {
      name: 'agent-host-never-reaches-adapters',
      comment:
        'The agent host is called by the hosting adapter and calls the service back through its door; it never imports the service\'s adapters (what it shares with them, the SSE reader, is in src/shared). Said on its own so the one arrow that once ran back up (agent-host-service-client.ts to adapters/outbound/ai/sse.ts) cannot return through a loosened agent-host-stands-alone.',
      severity: 'error',
      from: { path: '^src/agent-host/' },
      to: { path: '^src/adapters/' },
    },
    {
      name: 'shared-stands-alone',
      comment:
        'src/shared holds the few helpers that both the service and the agent host use (the SSE reader): no layer, no npm package, only itself and Node\'s own modules, so every side may import it and the agent-host image copies it whole.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { pathNot: '^src/shared/', dependencyTypesNot: ['core'] },
    },
    {
      name: 'only-agent-runtimes-speak-to-the-agent-host',
      comment: "The program's wire protocol is spoken by the outbound agent runtimes (bootstrap reads its version); use cases and inbound adapters never import the program.",
      severity: 'error',
      from: { path: '^src/(domain|application|adapters/inbound)/' },
      to: { path: '^src/agent-host/' },
    },
    {
      name: 'only-bootstrap-wires',
      comment: 'Nothing but bootstrap (and tests) imports the composition root.',
      severity: 'error',
      from: { path: '^src/(domain|application|adapters)/' },
      to: { path: '^src/bootstrap/' },
    },
    {
      name: 'dev-infrastructure-stands-apart',
      comment:
        'src/bootstrap/dev-infrastructure brings up what a fresh machine lacks (the embedded PostgreSQL when DATABASE_URL is unset): bootstrap starts it, and only-bootstrap-wires keeps every layer off it. It implements no port and knows nothing of the service (no domain, use case, inbound adapter, configuration or container); it may use the child-process helpers of adapters/outbound/system.',
      severity: 'error',
      from: { path: '^src/bootstrap/dev-infrastructure/' },
      to: { path: '^src/', pathNot: '^src/bootstrap/dev-infrastructure/|^src/adapters/outbound/system/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    babelConfig: { fileName: '.babelrc.layers.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.js', '.json'] },
  },
};
