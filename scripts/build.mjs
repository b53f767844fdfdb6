// The TypeScript build and the web console's (build-web.mjs), run only when its inputs changed. Plain JavaScript with no dependencies:
// it runs before anything is compiled. `node scripts/build.mjs` always builds (npm run build);
// `scripts/start.mjs` checks isBuildCurrent() and, when stale, says it is building and calls build().
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWeb } from './build-web.mjs';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
/** What the output depends on: sources, migrations, compiler settings, the installed versions. */
const INPUT_DIRS = ['src', 'migrations', 'web'];
const INPUT_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];
const STAMP = ['dist', '.build-stamp'];
const ENTRY = ['dist', 'src', 'bootstrap', 'main.js'];

/** sha256 over the path and content of every input file, in a stable order. */
export function sourceFingerprint(root = repoRoot) {
  const files = [...INPUT_FILES.map((f) => join(root, f)).filter((f) => existsSync(f))];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile()) files.push(p);
    }
  };
  for (const d of INPUT_DIRS) if (existsSync(join(root, d))) walk(join(root, d));
  const hash = createHash('sha256');
  for (const f of files.map((p) => relative(root, p)).sort()) hash.update(`${f}\0`).update(readFileSync(join(root, f))).update('\0');
  return hash.digest('hex');
}

/** True when dist/ was built from exactly the current inputs. */
export function isBuildCurrent(root = repoRoot) {
  const stamp = join(root, ...STAMP);
  return existsSync(join(root, ...ENTRY)) && existsSync(join(root, 'dist', 'web', 'index.html')) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === sourceFingerprint(root);
}

/** Runs tsc; on success records the fingerprint of the inputs it compiled. SIGTERM/SIGINT stop it. */
export async function build(root = repoRoot) {
  const fingerprint = sourceFingerprint(root);
  const tsc = spawn(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
  const stop = (signal) => tsc.kill(signal);
  process.once('SIGTERM', stop).once('SIGINT', stop);
  const code = await new Promise((resolve) => tsc.on('exit', (c, signal) => resolve(signal ? 128 : (c ?? 1))));
  process.off('SIGTERM', stop).off('SIGINT', stop);
  if (code !== 0) throw new Error(`the TypeScript build failed (tsc exited with ${code})`);
  await buildWeb(join(root, 'dist', 'web'), root);
  writeFileSync(join(root, ...STAMP), `${fingerprint}\n`);
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
