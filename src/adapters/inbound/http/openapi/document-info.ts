import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** name and version from the service's package.json, found upward from here (sources and build alike). */
export function packageInfo(): { name: string; version: string; description?: string } {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string; description?: string };
      if (pkg.name && pkg.version) return { name: pkg.name, version: pkg.version, ...(pkg.description ? { description: pkg.description } : {}) };
    }
    const up = dirname(dir);
    if (up === dir) return { name: 'agent-host', version: '0.0.0' };
    dir = up;
  }
}
