import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleService } from '../../../scripts/build.mjs';

/**
 * The bundle `npm start` runs (scripts/build.mjs, bundleService), made from a throwaway project's
 * "compiled" entry and packages: what a bundled module finds of its own path, and what the build
 * refuses to bundle.
 */
const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

function project(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-host-bundle-')));
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const run = (root: string) => execFileSync(process.execPath, [join(root, 'dist/service/main.js')], { encoding: 'utf8' }).trim();

describe('the service bundle', () => {
  it('when a bundled CommonJS package uses __dirname and __filename, then they name its own file in node_modules, as unbundled', async () => {
    const root = project({
      'dist/src/bootstrap/main.js': "import where from 'where-am-i';\nimport later from './later.js';\nconsole.log(JSON.stringify({ ...where, later: (await later()).dir }));\n",
      'dist/src/bootstrap/later.js': "export default () => import('nested-where');\n",
      'node_modules/where-am-i/package.json': '{"name": "where-am-i", "main": "lib/index.js"}',
      'node_modules/where-am-i/lib/index.js': "'use strict';\nmodule.exports = { dir: __dirname, file: __filename };\n",
      'node_modules/nested-where/package.json': '{"name": "nested-where", "type": "module", "exports": "./index.js"}',
      'node_modules/nested-where/index.js': "import inner from 'inner';\nexport const dir = inner;\n",
      'node_modules/nested-where/node_modules/inner/package.json': '{"name": "inner"}',
      'node_modules/nested-where/node_modules/inner/index.js': 'module.exports = __dirname;\n',
    });
    await bundleService(root);
    expect(JSON.parse(run(root))).toEqual({
      dir: join(root, 'node_modules/where-am-i/lib'),
      file: join(root, 'node_modules/where-am-i/lib/index.js'),
      later: join(root, 'node_modules/nested-where/node_modules/inner'),
    });
  });

  it.each([
    ['a module of ours names its own path without being one that searches upward', { 'dist/src/bootstrap/main.js': 'console.log(import.meta.url);\n' }, 'dist/src/bootstrap/main.js'],
    [
      'a package module resolves from its own place',
      { 'dist/src/bootstrap/main.js': "import 'resolver';\n", 'node_modules/resolver/index.js': "module.exports = require.resolve('./data.json');\n", 'node_modules/resolver/data.json': '{}' },
      'node_modules/resolver/index.js',
    ],
    [
      "a package import()s a CommonJS module (node's namespace has its named exports, the bundle's not)",
      { 'dist/src/bootstrap/main.js': "import 'importer';\n", 'node_modules/importer/index.js': "module.exports = () => import('plain-cjs');\n", 'node_modules/plain-cjs/index.js': 'exports.named = 1;\n' },
      'node_modules/importer/index.js imports node_modules/plain-cjs/index.js',
    ],
  ])('when %s, then the bundle is refused, naming it', async (_what, files, named) => {
    const root = project(files);
    await expect(bundleService(root)).rejects.toThrow(named);
    expect(existsSync(join(root, 'dist/service'))).toBe(false);
  });

  const viem = { 'node_modules/viem/package.json': '{"name": "viem", "type": "module", "exports": "./index.js"}', 'node_modules/viem/index.js': 'export const chain = () => 1;\n' };

  it.each([
    ['a module loaded at start imports a package only the chain adapters need', { 'dist/src/bootstrap/main.js': "import { chain } from 'viem';\nconsole.log(chain());\n" }],
    [
      "one of main.ts's imports made at every start does",
      { 'dist/src/bootstrap/main.js': "await import('./container.js');\n", 'dist/src/bootstrap/container.js': "import { chain } from 'viem';\nconsole.log(chain());\n" },
    ],
  ])('when %s, then the bundle is refused, naming its code', async (_what, files) => {
    const root = project({ ...viem, ...files });
    await expect(bundleService(root)).rejects.toThrow(/only the chain and wallet adapters need \(node_modules\/viem\/index\.js\)/);
  });

  it('when the chain adapters reach that package through import(), then the bundle is made and its start does not load it', async () => {
    const root = project({
      ...viem,
      'dist/src/bootstrap/main.js': "await import('./container.js');\nconsole.log(typeof globalThis.chainLoaded);\n",
      'dist/src/bootstrap/container.js': "export const later = () => import('./adapter.js');\n",
      'dist/src/bootstrap/adapter.js': "import { chain } from 'viem';\nglobalThis.chainLoaded = chain();\n",
    });
    await bundleService(root);
    expect(run(root)).toBe('undefined');
  });
});
