// The web console's build: esbuild bundles web/src into dist/web with content-hashed file names,
// then writes index.html pointing at them. Plain JavaScript, like build.mjs, so it runs before
// anything is compiled. `node scripts/build-web.mjs [outDir]` builds on its own.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Builds the console into `outDir` (default dist/web): `assets/app-<hash>.js|css` and `index.html`. */
export async function buildWeb(outDir = join(repoRoot, 'dist', 'web'), root = repoRoot) {
  const { build } = await import('esbuild');
  const assets = join(outDir, 'assets');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(assets, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { app: join(root, 'web', 'src', 'main.tsx') },
    bundle: true,
    format: 'esm',
    target: ['chrome120', 'firefox120', 'safari16'],
    minify: true,
    sourcemap: 'linked',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: assets,
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    metafile: true,
    logLevel: 'warning',
    legalComments: 'none',
  });
  const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
  const js = outputs.find((f) => f.startsWith('app-') && f.endsWith('.js'));
  const css = outputs.find((f) => f.startsWith('app-') && f.endsWith('.css'));
  if (!js || !css) throw new Error(`the web build made no app script or stylesheet (${outputs.join(', ')})`);
  const html = readFileSync(join(root, 'web', 'index.html'), 'utf8').replace('%APP_JS%', `/assets/${js}`).replace('%APP_CSS%', `/assets/${css}`);
  writeFileSync(join(outDir, 'index.html'), html);
  return { outDir, js, css };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildWeb(process.argv[2]).catch((err) => {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  });
}
