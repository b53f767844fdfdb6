import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
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
});
