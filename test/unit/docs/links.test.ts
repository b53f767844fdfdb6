import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { brokenLink, headingAnchors, linkTargets, markdownFiles } from './markdown-links.js';

describe('links in the README and docs/', () => {
  it('every relative link resolves to a file in the repository, and every anchor to a heading there', () => {
    const broken = markdownFiles().flatMap((file) =>
      linkTargets(readFileSync(file, 'utf8')).flatMap((target) => {
        const why = brokenLink(file, target);
        return why === null ? [] : [`${file}: (${target}) ${why}`];
      }),
    );
    expect(broken).toEqual([]);
  });

  it('the check itself finds a missing file, a missing heading and a link out of the repository', () => {
    expect(brokenLink('README.md', 'docs/no-such-file.md')).toBe('no such file');
    expect(brokenLink('README.md', 'docs/operations.md#no-such-heading')).toBe('no heading #no-such-heading');
    expect(brokenLink('README.md', '../shared/CONTRACT.md')).toBe('points outside the repository');
    expect(brokenLink('README.md', 'https://example.com/x')).toBeNull();
  });

  it('anchors are GitHub\'s: punctuation dropped, code marks dropped, repeats numbered', () => {
    expect([...headingAnchors('## Roles: running `api` apart\n## Roles: running `api` apart\n')]).toEqual([
      'roles-running-api-apart',
      'roles-running-api-apart-1',
    ]);
  });

  it('links shown as code are examples, not links', () => {
    expect(linkTargets('see `[x](nowhere.md)` and [y](docs/operations.md)\n```\n[z](nowhere.md)\n```\n')).toEqual([
      'docs/operations.md',
    ]);
  });
});

describe('the README', () => {
  const readme = readFileSync('README.md', 'utf8');

  it('guides a reader in under 250 lines; decisions, configuration and operations live in docs/', () => {
    expect(readme.split('\n').length).toBeLessThan(250);
  });

  it('names the two commands a newcomer needs', () => {
    expect(readme).toContain('npm start');
    expect(readme).toContain('npm test');
  });
});
