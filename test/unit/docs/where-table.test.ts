import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The columns of docs/architecture.md's "Where things live" table, in order. */
const COLUMNS = ['capability', 'domain', 'use cases', 'ports', 'adapters (outbound)', 'inbound (routes, jobs, sockets)', 'migrations', 'tests', 'decisions'];

/** The capabilities the table must have a row for (each row's first cell starts with one). */
const CAPABILITIES = [
  'sign-in and sessions',
  'API keys',
  'usage reservation and metering',
  'AI chat and `/v1`',
  "agents' state machine",
  'mailbox and claim',
  'runtimes and hosts',
  'MCP and schedules',
  'gateway payments',
  'Stripe webhooks',
  'payouts',
  'webhooks out',
  'mail',
  'metrics',
];

/** The lines under `## Where things live`, up to the next heading of the given levels (`#{1,2}`: its subsections included). */
const whereSection = (markdown: string, until: RegExp): string[] => {
  const start = markdown.search(/^## Where things live$/m);
  if (start < 0) return [];
  const rest = markdown.slice(start).split('\n').slice(1);
  const end = rest.findIndex((line) => until.test(line));
  return end < 0 ? rest : rest.slice(0, end);
};

/** The rows of the table under `## Where things live` (up to the next heading), each split into its cells. */
const whereTable = (markdown: string): string[][] =>
  whereSection(markdown, /^#{1,6} /)
    .filter((line) => line.startsWith('|') && !/^\|(\s*:?-+:?\s*\|)+\s*$/.test(line))
    .map((line) => line.slice(1, line.trimEnd().endsWith('|') ? line.trimEnd().length - 1 : undefined).split('|').map((cell) => cell.trim()));

/** The text between backticks in a cell. */
const codeSpans = (cell: string): string[] => [...cell.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);

/**
 * Why a code span of the table is not a path that exists in the repository, or null when it is one.
 * A span starting with `/` is a route (`/api/ai/chat`, `/v1`), not a file.
 */
const notAPath = (span: string): string | null => {
  if (span.startsWith('/')) return null;
  if (/[*?[\]{}]/.test(span)) return 'a glob, not a path';
  if (isAbsolute(span) || normalize(span).startsWith('..')) return 'outside the repository';
  if (normalize(span) !== span.replace(/\/$/, '')) return 'not in normal form';
  return existsSync(span) ? null : 'no such file or folder';
};

describe('docs/architecture.md: where things live', () => {
  const architecture = readFileSync('docs/architecture.md', 'utf8');
  const rows = whereTable(architecture);

  it('the table has the agreed columns and a row for each capability', () => {
    expect(rows[0]).toEqual(COLUMNS);
    const body = rows.slice(1);
    expect(body.filter((cells) => cells.length !== COLUMNS.length).map((cells) => cells[0])).toEqual([]);
    expect(CAPABILITIES.filter((name) => !body.some((cells) => cells[0]!.startsWith(name)))).toEqual([]);
  });

  it('every path it names, a file or a folder, exists in the repository', () => {
    const missing = rows.slice(1).flatMap((cells) =>
      cells.flatMap(codeSpans).flatMap((span) => {
        const why = notAPath(span);
        return why === null ? [] : [`${cells[0]!.split(':')[0]}: \`${span}\` ${why}`];
      }),
    );
    expect(missing).toEqual([]);
  });

  it('every path its notes and glossary name (a code span with a slash) exists too', () => {
    const spans = whereSection(architecture, /^#{1,2} /).flatMap(codeSpans).filter((span) => span.includes('/'));
    expect(spans.length).toBeGreaterThan(0);
    expect(spans.flatMap((span) => (notAPath(span) === null ? [] : [span]))).toEqual([]);
  });

  it('the check itself reads the table, tells routes from paths and refuses what does not exist', () => {
    const sample = '# x\n## Where things live\ntext\n| a | b |\n|---|---|\n| `src/domain` | `/v1` |\n## Next\n| `no/such` | x |\n';
    expect(whereTable(sample)).toEqual([['a', 'b'], ['`src/domain`', '`/v1`']]);
    expect(notAPath('src/domain')).toBeNull();
    expect(notAPath('docs/architecture.md')).toBeNull();
    expect(notAPath('/v1')).toBeNull();
    expect(notAPath('src/no-such-file.ts')).toBe('no such file or folder');
    expect(notAPath('src/**/*.ts')).toBe('a glob, not a path');
    expect(notAPath('../shared/CONTRACT.md')).toBe('outside the repository');
    expect(notAPath('src/./domain')).toBe('not in normal form');
  });
});
