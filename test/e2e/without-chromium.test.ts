import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `npm test` on a machine without Chromium: the browser test files run in a child Vitest with
 * CHROMIUM_PATH pointing nowhere, and every one of their tests is reported skipped with the reason
 * in its suite's name, none fails. A `describe.skipIf` body still runs while the file is collected,
 * so a file that starts its service or browser there fails instead; this catches one that does,
 * on every machine, also where Chromium is installed (the browser tests themselves then run).
 */
describe('the browser tests without Chromium', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'without-chromium-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('are all reported skipped, saying why, and the run passes', async () => {
    const browserFiles = readdirSync('test/e2e').filter((f) => f.endsWith('.test.ts') && f !== 'without-chromium.test.ts').map((f) => `test/e2e/${f}`);
    expect(browserFiles.length).toBeGreaterThan(0);
    const report = join(scratch, 'report.json');
    // the child is a Vitest of its own: none of this worker's VITEST_* variables
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_ENV'));
    const run = await new Promise<{ code: number | null; output: string }>((resolve) => {
      execFile(
        process.execPath,
        ['node_modules/vitest/vitest.mjs', 'run', ...browserFiles, '--reporter=json', `--outputFile=${report}`],
        { env: { ...env, CHROMIUM_PATH: '/nonexistent/chromium' }, timeout: 110_000, maxBuffer: 16 * 1024 * 1024 },
        (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
      );
    });
    expect(run.code, run.output).toBe(0);

    const results = JSON.parse(readFileSync(report, 'utf8')) as {
      numTotalTests: number;
      numPendingTests: number;
      numFailedTests: number;
      testResults: { name: string; status: string; message: string; assertionResults: { status: string; ancestorTitles: string[] }[] }[];
    };
    expect(results.testResults.map((f) => f.name.slice(f.name.indexOf('test/e2e/'))).sort()).toEqual([...browserFiles].sort());
    for (const file of results.testResults) {
      expect(file.message, file.name).toBe('');
      expect(file.assertionResults.length, `${file.name} has tests`).toBeGreaterThan(0);
      for (const test of file.assertionResults) {
        expect(test.status).toBe('skipped');
        expect(test.ancestorTitles[0]).toContain('(skipped: no Chromium at /nonexistent/chromium');
      }
    }
    expect(results.numFailedTests).toBe(0);
    expect(results.numPendingTests).toBe(results.numTotalTests);
  }, 120_000);
});
