import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

describe('time in the core', () => {
  it('when the domain or a use case needs the time, then it asks the one clock port (CLOCK), never the machine', () => {
    const readers = [...files('src/domain'), ...files('src/application')]
      .filter((f) => f !== join('src', 'application', 'ports', 'clock.port.ts'))
      .flatMap((f) => readFileSync(f, 'utf8').split('\n').map((line, i) => ({ where: `${f}:${i + 1}`, line })))
      .filter(({ line }) => /new Date\(\)|Date\.now\(\)|performance\.now\(\)/.test(line))
      .map(({ where }) => where);
    expect(readers).toEqual([]);
  });

  it('there is one clock port', () => {
    const ports = files('src/application').filter((f) => /interface \w*Clock\b/.test(readFileSync(f, 'utf8')));
    expect(ports).toEqual([join('src', 'application', 'ports', 'clock.port.ts')]);
  });
});
