import { describe, expect, it } from 'vitest';
import { deliveryStatusAfter, isPrivateAddress, webhookUrlProblem } from '../../../src/domain/webhooks/webhook-target.js';

describe('webhook targets', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1'])(
    'when the address is %s, then it is private',
    (ip) => expect(isPrivateAddress(ip)).toBe(true),
  );

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])('when the address is %s, then it is public', (ip) => expect(isPrivateAddress(ip)).toBe(false));

  it('when a URL is registered, then scheme, credentials and literal private hosts are checked', () => {
    expect(webhookUrlProblem('https://hooks.example.com/in', false)).toBeNull();
    expect(webhookUrlProblem('nope', false)).toBe('not-a-url');
    expect(webhookUrlProblem('ftp://example.com/x', false)).toBe('scheme');
    expect(webhookUrlProblem('https://u:p@example.com/x', false)).toBe('credentials');
    expect(webhookUrlProblem('http://localhost:8080/x', false)).toBe('private-target');
    expect(webhookUrlProblem('http://[::1]/x', false)).toBe('private-target');
    expect(webhookUrlProblem('http://10.0.0.5/x', false)).toBe('private-target');
    expect(webhookUrlProblem('http://127.0.0.1:9/x', true)).toBeNull();
  });

  it('when an attempt ends, then the delivery is delivered, retrying, or dead once the retries are spent', () => {
    expect(deliveryStatusAfter(1, true, 2)).toBe('delivered');
    expect(deliveryStatusAfter(1, false, 2)).toBe('retrying');
    expect(deliveryStatusAfter(2, false, 2)).toBe('retrying');
    expect(deliveryStatusAfter(3, false, 2)).toBe('dead');
    expect(deliveryStatusAfter(1, false, 0)).toBe('dead');
  });
});
