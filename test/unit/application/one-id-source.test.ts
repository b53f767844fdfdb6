import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

/** node:crypto's random functions, and the Web Crypto and Math ones that would do the same job. */
const RANDOM = /\b(randomUUID|randomBytes|randomInt|randomFill|randomFillSync|getRandomValues|generateKeySync|Math\.random)\b/;

describe('randomness in the core', () => {
  it('when the domain or a use case needs an id, a nonce or a secret, then it asks the one id port (ID_GENERATOR), never node:crypto', () => {
    const readers = [...files('src/domain'), ...files('src/application')]
      .flatMap((f) => readFileSync(f, 'utf8').split('\n').map((line, i) => ({ where: `${f}:${i + 1}`, line })))
      .filter(({ line }) => RANDOM.test(line))
      .map(({ where }) => where);
    expect(readers).toEqual([]);
  });

  it('there is one id port', () => {
    const ports = files('src/application').filter((f) => /interface \w*IdGenerator\b/.test(readFileSync(f, 'utf8')));
    expect(ports).toEqual([join('src', 'application', 'ports', 'id-generator.port.ts')]);
  });
});
