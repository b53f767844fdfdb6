import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const folder = join('docs', 'decisions');
const records = readdirSync(folder).filter((name) => name !== 'README.md');

describe('decision records (docs/decisions)', () => {
  it('each is named NNNN-short-slug.md, and no number is used twice', () => {
    expect(records.filter((name) => !/^\d{4}-[a-z0-9]+(-[a-z0-9]+)*\.md$/.test(name))).toEqual([]);
    const numbers = records.map((name) => name.slice(0, 4));
    expect(numbers.filter((n, i) => numbers.indexOf(n) !== i)).toEqual([]);
  });

  it('each has a title, then Context, Decision and Consequences, in that order', () => {
    const misshapen = records.filter((name) => {
      const headings = [...readFileSync(join(folder, name), 'utf8').matchAll(/^(#{1,2}) (.+)$/gm)].map((m) => (m[1] === '#' ? '#' : m[2]));
      return headings.join('|') !== '#|Context|Decision|Consequences';
    });
    expect(misshapen).toEqual([]);
  });

  it('each speaks of features, never of issue numbers', () => {
    const tagged = records.filter((name) => /\bissues? \d+/i.test(readFileSync(join(folder, name), 'utf8')));
    expect(tagged).toEqual([]);
  });

  it('each is listed in the index (docs/decisions/README.md)', () => {
    const index = readFileSync(join(folder, 'README.md'), 'utf8');
    expect(records.filter((name) => !index.includes(`(${name})`))).toEqual([]);
  });
});
