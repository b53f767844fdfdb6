import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

describe('use cases and the unit of work', () => {
  it('when a use case takes the unit of work, then it names the slice it uses (UserWork, SystemWork, HotRead), never the whole', () => {
    const whole = files('src/application')
      .filter((f) => !f.includes(`${join('application', 'ports')}`))
      .filter((f) => /@inject\(UNIT_OF_WORK\)\s+private readonly \w+: UnitOfWork\b/.test(readFileSync(f, 'utf8')));
    expect(whole).toEqual([]);
  });

  it('one use case a file', () => {
    const crowded = files('src/application').filter((f) => (readFileSync(f, 'utf8').match(/^export class \w+/gm) ?? []).length > 1 && f.endsWith('.use-case.ts'));
    expect(crowded).toEqual([]);
    expect(files('src/application').filter((f) => f.endsWith('.use-cases.ts'))).toEqual([]);
  });
});
