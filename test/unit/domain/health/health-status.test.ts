import { describe, expect, it } from 'vitest';
import { healthOf } from '../../../../src/domain/health/health-status.js';

const spec = { degradedAbove: 70, unhealthyAbove: 85 };

describe('health value', () => {
  it.each([
    [0, 0, 'healthy'],
    [70, 70, 'healthy'],
    [70.1, 10, 'degraded'],
    [10, 85, 'degraded'],
    [85.1, 0, 'unhealthy'],
    [0, 99, 'unhealthy'],
  ])('cpu %d%% and memory %d%% is %s', (cpu, mem, expected) => {
    expect(healthOf(cpu, mem, spec)).toBe(expected);
  });
});
