import { describe, expect, it } from 'vitest';
import { openTestPersistence } from '../../support/persistence.js';

describe('persistence smoke', () => {
  it('connects as app_user and app_system', async () => {
    const { pools } = await openTestPersistence();
    const u = await pools.user.query('select current_user');
    const s = await pools.system.query('select current_user');
    expect(u.rows[0].current_user).toBe('app_user');
    expect(s.rows[0].current_user).toBe('app_system');
  });
});
