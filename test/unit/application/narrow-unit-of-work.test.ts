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

  /** Each folder of src/application and the area whose scope (ports/scopes/<area>-scope.port.ts) its use cases take. */
  const areaOf: Record<string, string> = {
    accounts: 'accounts', 'api-keys': 'accounts', identity: 'accounts', auth: 'accounts',
    billing: 'billing', ai: 'billing',
    agents: 'agents', instances: 'agents', heartbeat: 'agents', memory: 'agents', verification: 'agents', schedules: 'agents',
    skills: 'skills', wallets: 'wallets', gateway: 'gateway', metrics: 'metrics',
    mail: 'delivery', webhooks: 'delivery', maintenance: 'maintenance',
    mcp: 'mcp',
  };
  const capital = (area: string) => area[0]!.toUpperCase() + area.slice(1);

  it("when a use case names the scope its slice is taken from, then it is its own area's, imported from its area's scope file", () => {
    const strays = files('src/application')
      .filter((f) => !f.startsWith(join('src', 'application', 'ports')))
      .flatMap((f) => {
        const source = readFileSync(f, 'utf8');
        const area = areaOf[f.split(/[\\/]/)[2]!];
        const named = [...source.matchAll(/\b(?:UserWork|SystemWork|SystemStatements|Pick)<(\w*(?:User|System)Scope)\b/g)].map((m) => m[1]!);
        const imported = [...source.matchAll(/from '[./]*ports\/(?:scopes\/([\w-]+)-scope|unit-of-work)\.port\.js'/g)].map((m) => m[1]);
        const own = area === undefined ? [] : [`${capital(area)}UserScope`, `${capital(area)}SystemScope`];
        return [
          ...named.filter((scope) => !own.includes(scope)).map((scope) => `${f}: ${scope}`),
          ...imported.filter((a) => a !== undefined && a !== area).map((a) => `${f}: imports ${a}-scope.port.ts`),
        ];
      });
    expect(strays).toEqual([]);
  });

  it('when an area has a scope, then the whole scope (UserScope, SystemScope) is built from it, and nothing else in src/application names the whole', () => {
    const bases = (readFileSync(join('src', 'application', 'ports', 'unit-of-work.port.ts'), 'utf8').match(/interface (?:User|System)Scope\s+extends[^{]*/g) ?? []).join(' ');
    const areaScopes = files(join('src', 'application', 'ports', 'scopes')).flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/^export interface (\w+(?:User|System)Scope)\b/gm)].map((m) => m[1]!),
    );
    expect(areaScopes.filter((s) => !s.startsWith('Shared') && !new RegExp(`\\b${s}\\b`).test(bases))).toEqual([]);
    const whole = files('src/application')
      .filter((f) => !f.startsWith(join('src', 'application', 'ports')))
      .filter((f) => /\b(?:UserScope|SystemScope)\b/.test(readFileSync(f, 'utf8')));
    expect(whole).toEqual([]);
  });

  it('one use case a file', () => {
    const crowded = files('src/application').filter((f) => (readFileSync(f, 'utf8').match(/^export class \w+/gm) ?? []).length > 1 && f.endsWith('.use-case.ts'));
    expect(crowded).toEqual([]);
    expect(files('src/application').filter((f) => f.endsWith('.use-cases.ts'))).toEqual([]);
  });

  it('one job a use case: its class offers one public operation (lifecycle hooks named below aside)', () => {
    /** Public methods beyond the one operation, each with why it is not a second job. */
    const lifecycle: Record<string, string[]> = {
      // the process is stopping: every wait ends at once (shutdown order, not an operation of its own)
      'send-agent-message.use-case.ts': ['stopWaiting'],
      // the dispatcher hands back a claim it took when the outcome could not be stored (part of answering)
      'answer-next-agent-message.use-case.ts': ['releaseClaim'],
      // the reconcile's own first step alone, for a beat that finds a slow reconcile still under way
      // (decision 0380); it shares the reconcile's record of the last renewal
      'reconcile-instances.use-case.ts': ['renewLeases'],
    };
    const publicMethods = (source: string): string[] => {
      const body = /^export class \w+[^\n]*\{\n([\s\S]*?)^\}/m.exec(source)?.[1] ?? '';
      // `async run(`, `*items(` and `async *stream(` alike: a generator is an operation too
      return [...body.matchAll(/^  (?:async\s+)?(?:\*\s*)?(?!constructor\b|private\b|protected\b|readonly\b|static\b|get\b|set\b)(\w+)\s*(?:<[^>]*>)?\(/gm)].map((m) => m[1]!);
    };
    const crowded = files('src/application')
      .filter((f) => f.endsWith('.use-case.ts'))
      .map((f) => ({ file: f, methods: publicMethods(readFileSync(f, 'utf8')).filter((m) => !(lifecycle[f.split(/[\\/]/).at(-1)!] ?? []).includes(m)) }))
      .filter((u) => u.methods.length !== 1);
    expect(crowded).toEqual([]);
  });
});
