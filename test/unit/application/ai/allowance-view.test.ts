import { describe, expect, it } from 'vitest';
import { AllowanceView } from '../../../../src/application/ai/allowance-view.js';
import type { UserId } from '../../../../src/domain/shared/ids.js';

const payer = 'p1' as UserId;

describe('AllowanceView (decision 0374)', () => {
  it('covers nothing before a reservation has answered, then what was read less the reservations in flight', () => {
    const view = new AllowanceView();
    expect(view.covers(payer, 1)).toBe(false);
    view.reserving(payer, 5)(100);
    expect(view.covers(payer, 100)).toBe(true);
    expect(view.covers(payer, 101)).toBe(false);
    const answered = view.reserving(payer, 30);
    expect(view.covers(payer, 70)).toBe(true);
    expect(view.covers(payer, 71)).toBe(false);
    answered(70);
    expect(view.covers(payer, 70)).toBe(true);
  });

  it('a reservation that failed gives its units back to the view without a figure', () => {
    const view = new AllowanceView();
    view.reserving(payer, 5)(50);
    const failed = view.reserving(payer, 50);
    expect(view.covers(payer, 1)).toBe(false);
    failed();
    expect(view.covers(payer, 50)).toBe(true);
  });

  it('answers read out of order never raise the view above the newer figure', () => {
    const view = new AllowanceView();
    view.reserving(payer, 1)(100);
    const a = view.reserving(payer, 10);
    const b = view.reserving(payer, 10);
    // b committed first (saw 90 left after it), a after it (80); a's answer is handled first
    a(80);
    b(90);
    expect(view.covers(payer, 80)).toBe(true);
    expect(view.covers(payer, 81)).toBe(false);
  });

  it('a refusal (available below the call) stops covering; forget drops the view', () => {
    const view = new AllowanceView();
    view.reserving(payer, 1)(100);
    view.reserving(payer, 20)(3);
    expect(view.covers(payer, 20)).toBe(false);
    view.reserving(payer, 1)(100);
    view.forget(payer);
    expect(view.covers(payer, 1)).toBe(false);
  });
});
