import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The built console, `dist/web` under the package root: found upward from this file, so the
 * sources (tsx, vitest) and the compiled build (dist/src/...) serve the same folder.
 */
export function webConsoleRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'web'))) {
    const up = dirname(dir);
    if (up === dir) return join(process.cwd(), 'dist', 'web');
    dir = up;
  }
  return join(dir, 'dist', 'web');
}
