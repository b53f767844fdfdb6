import { readFileSync } from 'node:fs';

export const SPEC_FILE = '/work/shared/spec/interface-spec.md';

/** A path with every parameter (`:id`, `{id}`, `<skill-slug>`) written `{}`, so spec and routes compare. */
export const normalizePath = (path: string): string =>
  path
    .split('?')[0]!
    .replace(/:[A-Za-z]+/g, '{}')
    .replace(/\{[A-Za-z_]+\}/g, '{}')
    .replace(/<[^>]+>/g, '{}')
    .replace(/\/$/, '');

/**
 * Every endpoint the spec names in its "Endpoints" section: the rows of its tables
 * (`| METHOD | /path ... |`) and the endpoints its prose names (`GET /api/chat`), as
 * `METHOD /normalized/path`. Qualifiers such as `(single)` or `?plan=<plan>` are dropped.
 */
export function specEndpoints(text = readFileSync(SPEC_FILE, 'utf8')): Set<string> {
  const start = text.indexOf('\n## Endpoints');
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end === -1 ? undefined : end);
  const found = new Set<string>();
  const add = (method: string, path: string) => found.add(`${method} ${normalizePath(path.trim().split(/\s/)[0]!)}`);
  for (const m of section.matchAll(/^\|\s*(GET|POST|PUT|PATCH|DELETE|OPTIONS)\s*\|\s*(\/[^|]*?)\s*\|/gm)) add(m[1]!, m[2]!);
  for (const m of section.matchAll(/\b(GET|POST|PUT|PATCH|DELETE|OPTIONS) (\/[A-Za-z0-9/:_<>{}.-]*[A-Za-z0-9_>}])/g)) add(m[1]!, m[2]!);
  // "### Gateway (POST /api/v1/gateway, OPTIONS for CORS)"
  for (const m of section.matchAll(/^###.*\b(?:GET|POST|PUT|PATCH|DELETE) (\/\S+?)[,)].*\bOPTIONS\b/gm)) add('OPTIONS', m[1]!);
  return found;
}
