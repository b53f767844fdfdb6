/** Credit packs (spec "Credit packs"): the pack id is a string, as the API carries it. */
export const CREDIT_PACKS = ['50', '200', '500'] as const;
export type CreditPack = (typeof CREDIT_PACKS)[number];

export const isCreditPack = (v: unknown): v is CreditPack =>
  typeof v === 'string' && (CREDIT_PACKS as readonly string[]).includes(v);

export interface CreditPackOffer {
  /** Credits added to the balance once the payment is confirmed. */
  readonly credits: number;
  /** Price in USD. */
  readonly priceUsd: number;
}

export const CREDIT_PACK_CATALOG: Readonly<Record<CreditPack, CreditPackOffer>> = Object.freeze({
  '50': Object.freeze({ credits: 5, priceUsd: 5 }),
  '200': Object.freeze({ credits: 15, priceUsd: 15 }),
  '500': Object.freeze({ credits: 30, priceUsd: 30 }),
});

/** The packs as listed by `GET /api/credits` (`{pack, credits, price}`), in catalog order. */
export const creditPackList = (): { pack: CreditPack; credits: number; price: number }[] =>
  CREDIT_PACKS.map((pack) => ({ pack, credits: CREDIT_PACK_CATALOG[pack].credits, price: CREDIT_PACK_CATALOG[pack].priceUsd }));
