import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUBSCRIBED_STATUSES_SQL } from '../../../src/adapters/outbound/persistence/sql-literals.js';
import { isSubscribed, SUBSCRIPTION_STATUSES } from '../../../src/domain/billing/subscription.js';

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

describe('domain constants in SQL', () => {
  it('the subscribed statuses are the domain\'s, quoted', () => {
    expect(SUBSCRIBED_STATUSES_SQL).toBe(SUBSCRIPTION_STATUSES.filter(isSubscribed).map((s) => `'${s}'`).join(', '));
    expect(SUBSCRIBED_STATUSES_SQL).toBe("'active', 'trialing'");
  });

  it('the list is built in one place', () => {
    const builders = files('src').filter((f) => /SUBSCRIPTION_STATUSES\.filter\(isSubscribed\)/.test(readFileSync(f, 'utf8')));
    expect(builders).toEqual([join('src', 'adapters', 'outbound', 'persistence', 'sql-literals.ts')]);
  });
});
