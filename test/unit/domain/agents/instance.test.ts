import { describe, expect, it } from 'vitest';
import { ADMIN_ALLOWANCE, allowanceOf, ramCapBytes } from '../../../../src/domain/agents/agent-limits.js';
import { moveInstance, subdomainFor, type Instance } from '../../../../src/domain/agents/instance.js';

const t0 = new Date('2026-11-24T10:00:00Z');
const t1 = new Date('2026-11-24T11:00:00Z');
const instance = (status: Instance['status']): Instance => ({
  userId: 'u', status, startedAt: t0, subdomain: 'u-1', url: 'http://u-1.local', plan: 'solo', runtimeVersion: '1',
});

describe('the instance', () => {
  it('when it is stopped, then every agent it hosts is stopped with it', () => {
    const r = moveInstance(instance('running'), [{ id: 'a', status: 'running' }, { id: 'b', status: 'error' }, { id: 'c', status: 'provisioning' }], 'stop', t1);
    expect(r.instance.status).toBe('stopped');
    expect(r.agents.map((m) => [m.agent.id, m.transition])).toEqual([
      ['a', { kind: 'moved', from: 'running', to: 'stopped' }],
      ['b', { kind: 'moved', from: 'error', to: 'stopped' }],
      ['c', { kind: 'moved', from: 'provisioning', to: 'stopped' }],
    ]);
  });

  it('when it restarts, then startedAt is now; a start of a running instance keeps it', () => {
    expect(moveInstance(instance('running'), [], 'restart', t1).instance.startedAt).toEqual(t1);
    expect(moveInstance(instance('stopped'), [], 'start', t1).instance.startedAt).toEqual(t1);
    expect(moveInstance(instance('running'), [], 'start', t1).instance.startedAt).toEqual(t0);
    expect(moveInstance(instance('running'), [], 'stop', t1).instance.startedAt).toEqual(t0);
  });

  it('when it crashes, then its live agents go to error and a stopped agent stays stopped', () => {
    const r = moveInstance(instance('running'), [{ id: 'a', status: 'running' }, { id: 'b', status: 'stopped' }], 'crash', t1);
    expect(r.instance.status).toBe('error');
    expect(r.agents).toEqual([{ agent: { id: 'a', status: 'running' }, transition: { kind: 'moved', from: 'running', to: 'error' } }]);
  });

  it('the subdomain is a stable DNS label derived from the user id', () => {
    expect(subdomainFor('0b7e5c1a-1111-4222-8333-944445555666')).toBe('u-0b7e5c1a11114222');
    expect(subdomainFor('0b7e5c1a-1111-4222-8333-944445555666')).toMatch(/^[a-z0-9-]{1,63}$/);
  });
});

describe('what the plans allow an instance', () => {
  it('without a subscribed plan and not an admin: nothing (402)', () => {
    expect(allowanceOf([], false)).toBeNull();
  });

  it('the best subscribed plan decides each figure (CONTRACT.md section 5)', () => {
    expect(allowanceOf([{ catalog: 'checkout', plan: 'solo' }], false)).toEqual({ agents: 3, skills: 10, ramGb: 2 });
    expect(allowanceOf([{ catalog: 'checkout', plan: 'label' }, { catalog: 'billing', plan: 'pro' }], false)).toEqual({ agents: 3, skills: 10, ramGb: 8 });
    expect(ramCapBytes({ agents: 1, skills: 3, ramGb: 2 })).toBe(2 * 1024 ** 3);
  });

  it('an admin needs no plan and gets the admin limit of 1000 agents', () => {
    expect(allowanceOf([], true)).toEqual(ADMIN_ALLOWANCE);
    expect(ADMIN_ALLOWANCE.agents).toBe(1000);
  });
});
