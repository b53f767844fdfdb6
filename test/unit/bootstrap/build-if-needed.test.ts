import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIfNeeded, isBuildCurrent, sourceFingerprint } from '../../../scripts/build.mjs';

/**
 * `npm start` builds only when the build's inputs changed. A throwaway project whose "tsc" only
 * counts its runs and writes the entry point stands in for the real compiler.
 */
const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

function project(): { root: string; runs: () => number } {
  const root = mkdtempSync(join(tmpdir(), 'agent-host-build-'));
  made.push(root);
  const put = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  put('src/bootstrap/main.ts', 'export {};\n');
  put('migrations/index.ts', 'export const migrations = {};\n');
  put('tsconfig.json', '{}\n');
  put('tsconfig.build.json', '{}\n');
  put('package-lock.json', '{}\n');
  // the web console's sources: esbuild really bundles these (a script and its stylesheet)
  put('web/index.html', '<script type="module" src="%APP_JS%"></script><link rel="stylesheet" href="%APP_CSS%">\n');
  put('web/src/main.tsx', "import './styles.css';\nexport const hello = 'console';\n");
  put('web/src/styles.css', 'body { margin: 0; }\n');
  put(
    'node_modules/typescript/bin/tsc',
    `const fs = require('node:fs'); fs.appendFileSync(${JSON.stringify(join(root, 'tsc-runs'))}, 'x');
     fs.mkdirSync(${JSON.stringify(join(root, 'dist/src/bootstrap'))}, { recursive: true });
     fs.writeFileSync(${JSON.stringify(join(root, 'dist/src/bootstrap/main.js'))}, '');\n`,
  );
  put('node_modules/typescript/package.json', '{"type": "commonjs"}\n');
  return { root, runs: () => { try { return readFileSync(join(root, 'tsc-runs'), 'utf8').length; } catch { return 0; } } };
}

describe('build only when the sources changed', () => {
  it('when dist/ is missing, then it builds; when nothing changed since, then it does not', async () => {
    const p = project();
    expect(isBuildCurrent(p.root)).toBe(false);
    expect(await buildIfNeeded(p.root)).toBe(true);
    expect(p.runs()).toBe(1);
    expect(readFileSync(join(p.root, 'dist/.build-stamp'), 'utf8').trim()).toBe(sourceFingerprint(p.root));
    expect(await buildIfNeeded(p.root)).toBe(false);
    expect(p.runs()).toBe(1);
  });

  it.each([
    ['a source changes', (root: string) => appendFileSync(join(root, 'src/bootstrap/main.ts'), '// edit\n')],
    ['a source is added', (root: string) => writeFileSync(join(root, 'src/new.ts'), 'export {};\n')],
    ['a migration changes', (root: string) => appendFileSync(join(root, 'migrations/index.ts'), '// edit\n')],
    ['a web console source changes', (root: string) => appendFileSync(join(root, 'web/src/styles.css'), 'main { padding: 0; }\n')],
    ['the built web console was deleted', (root: string) => rmSync(join(root, 'dist/web'), { recursive: true })],
    ['the compiler settings change', (root: string) => writeFileSync(join(root, 'tsconfig.build.json'), '{"compilerOptions": {}}\n')],
    ['the installed versions change', (root: string) => writeFileSync(join(root, 'package-lock.json'), '{"v": 2}\n')],
    ['the output was deleted', (root: string) => rmSync(join(root, 'dist/src'), { recursive: true })],
    ['the service bundle was deleted', (root: string) => rmSync(join(root, 'dist/service'), { recursive: true })],
  ])('when %s, then it builds again', async (_what, change) => {
    const p = project();
    await buildIfNeeded(p.root);
    change(p.root);
    expect(isBuildCurrent(p.root)).toBe(false);
    expect(await buildIfNeeded(p.root)).toBe(true);
    expect(p.runs()).toBe(2);
  });

  it('when only modification times change (a fresh checkout), then it does not build', async () => {
    const p = project();
    await buildIfNeeded(p.root);
    utimesSync(join(p.root, 'src/bootstrap/main.ts'), new Date(), new Date(Date.now() + 60_000));
    expect(await buildIfNeeded(p.root)).toBe(false);
  });

  // The check trusts the stat data recorded with the build's fingerprint, and reads no file, only
  // when every input still has it and changed long enough before it was taken; here the record is
  // dated later than it was, standing in for the time that passes before a next start.
  const vouchedFor = (root: string) => {
    const file = join(root, 'dist/.build-stats.json');
    const stats = JSON.parse(readFileSync(file, 'utf8')) as { takenAt: number };
    writeFileSync(file, JSON.stringify({ ...stats, takenAt: Date.now() + 60_000 }));
  };

  it('when a source is rewritten with the same size and its modification time put back, then it builds again', async () => {
    const p = project();
    const file = join(p.root, 'src/bootstrap/main.ts');
    const longAgo = new Date('2026-01-01T00:00:00Z'); // whole seconds: utimes sets it back exactly
    utimesSync(file, longAgo, longAgo);
    await buildIfNeeded(p.root);
    vouchedFor(p.root);
    expect(isBuildCurrent(p.root)).toBe(true);
    const before = statSync(file);
    writeFileSync(file, 'export { }\n'); // as long as 'export {};\n'
    utimesSync(file, longAgo, longAgo);
    expect(statSync(file).size).toBe(before.size);
    expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
    expect(await buildIfNeeded(p.root)).toBe(true);
  });

  it('when the stat data vouches for the inputs, then it does not read them; when a file was touched, then it does', async () => {
    const p = project();
    await buildIfNeeded(p.root);
    vouchedFor(p.root);
    // a fingerprint that is not the inputs': only reading them could tell
    const stamp = join(p.root, 'dist/.build-stamp');
    const stats = join(p.root, 'dist/.build-stats.json');
    writeFileSync(stamp, `${'f'.repeat(64)}\n`);
    writeFileSync(stats, JSON.stringify({ ...JSON.parse(readFileSync(stats, 'utf8')), fingerprint: 'f'.repeat(64) }));
    expect(isBuildCurrent(p.root)).toBe(true);
    utimesSync(join(p.root, 'migrations/index.ts'), new Date(), new Date());
    expect(isBuildCurrent(p.root)).toBe(false);
  });
});
