import { describe, expect, it } from 'vitest';
import { CREDIT_PACK_CATALOG, creditPackList, isCreditPack } from '../../../../src/domain/billing/credit-packs.js';

describe('credit packs', () => {
  it('when reading the catalog, then packs match the spec', () => {
    expect(CREDIT_PACK_CATALOG).toEqual({
      '50': { credits: 5, priceUsd: 5 },
      '200': { credits: 15, priceUsd: 15 },
      '500': { credits: 30, priceUsd: 30 },
    });
    expect(creditPackList()).toEqual([
      { pack: '50', credits: 5, price: 5 },
      { pack: '200', credits: 15, price: 15 },
      { pack: '500', credits: 30, price: 30 },
    ]);
  });

  it('when given other values, then they are not packs', () => {
    expect(isCreditPack('200')).toBe(true);
    for (const v of ['100', 50, '', null, ' 50']) expect(isCreditPack(v)).toBe(false);
  });
});
