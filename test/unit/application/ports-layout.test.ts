import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

describe('ports', () => {
  it('when the application defines an injection token, then it is in src/application/ports, beside its interface', () => {
    const outside = files('src/application')
      .filter((f) => !f.startsWith(join('src', 'application', 'ports')))
      .filter((f) => /InjectionToken<[^>]+>\s*=\s*Symbol\(/.test(readFileSync(f, 'utf8')));
    expect(outside).toEqual([]);
  });

  it('when a port file is named, then it is named as a port (`*.port.ts`); the one folder holds the areas\' unit-of-work scopes', () => {
    expect(readdirSync(join('src', 'application', 'ports')).filter((f) => !f.endsWith('.port.ts') && f !== 'scopes')).toEqual([]);
    expect(readdirSync(join('src', 'application', 'ports', 'scopes')).filter((f) => !f.endsWith('-scope.port.ts'))).toEqual([]);
  });

  it('one port a file: a port file declares at most one injection token, so a file name says what it holds', () => {
    const crowded = files(join('src', 'application', 'ports'))
      .map((f) => ({ file: f, tokens: (readFileSync(f, 'utf8').match(/InjectionToken<[^>]+>\s*=\s*Symbol\(/g) ?? []).length }))
      .filter((p) => p.tokens > 1);
    expect(crowded).toEqual([]);
  });
});
