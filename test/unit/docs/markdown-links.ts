import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** README.md and every Markdown file under docs/, as paths relative to the repository root. */
export const markdownFiles = (): string[] => {
  const under = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? under(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
    );
  return ['README.md', ...under('docs')];
};

/** Text with fenced code blocks and inline code removed: a link shown as code is an example, not a link. */
const withoutCode = (markdown: string): string => markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** The targets of `[text](target)` and `![alt](target)` links. */
export const linkTargets = (markdown: string): string[] =>
  [...withoutCode(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export const headingAnchors = (markdown: string): Set<string> => {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, text] of withoutCode(markdown.replace(/`([^`\n]*)`/g, '$1')).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = text!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
};

/** Why a relative link from `file` does not resolve inside the repository, or null when it does. */
export const brokenLink = (file: string, target: string): string | null => {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto: and the like leave the repository
  const [path, anchor] = target.split('#') as [string, string | undefined];
  const resolved = path === '' ? resolve(file) : resolve(dirname(file), decodeURIComponent(path));
  const inside = relative(process.cwd(), resolved);
  if (inside.startsWith('..') || inside === '') return 'points outside the repository';
  if (!existsSync(resolved)) return 'no such file';
  if (anchor === undefined || statSync(resolved).isDirectory() || !resolved.endsWith('.md')) return null;
  return headingAnchors(readFileSync(resolved, 'utf8')).has(anchor) ? null : `no heading #${anchor}`;
};
