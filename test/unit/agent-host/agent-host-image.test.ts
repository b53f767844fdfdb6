import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docker/agent-host.Dockerfile copies only some compiled files into the image: the program's
 * import graph must stay inside them and use nothing but Node's own modules, or the container
 * would fail at its first start.
 */
const root = resolve(import.meta.dirname, '../../..');
const PROGRAM = 'src/agent-host/agent-host-program.ts';

function importGraph(entry: string) {
  const files = new Set<string>();
  const external = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(resolve(root, file), 'utf8');
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'([^']+)'|import\('([^']+)'\)/g)) {
      const spec = m[1] ?? m[2]!;
      if (spec.startsWith('.')) visit(relative(root, resolve(dirname(resolve(root, file)), spec.replace(/\.js$/, '.ts'))));
      else external.add(spec);
    }
  };
  visit(entry);
  return { files: [...files], external: [...external] };
}

describe('the agent-host image', () => {
  it('holds every file the program imports, and the program needs no npm package', () => {
    const dockerfile = readFileSync(resolve(root, 'docker/agent-host.Dockerfile'), 'utf8');
    const copied = [...dockerfile.matchAll(/^COPY (dist\/\S+) /gm)].map((m) => m[1]!.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
    const { files, external } = importGraph(PROGRAM);
    expect(files).toContain('src/shared/sse-reader.ts'); // the graph is really walked
    expect(external.every((e) => e.startsWith('node:'))).toBe(true);
    for (const f of files) expect(copied.some((c) => (c.endsWith('/') ? f.startsWith(c) : f === c)), f).toBe(true);
    expect(dockerfile).toContain(`CMD ["node", "dist/${PROGRAM.replace(/\.ts$/, '.js')}"]`);
  });
});
