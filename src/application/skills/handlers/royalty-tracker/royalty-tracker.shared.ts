import type { RoyaltyEntry } from '../../../ports/royalty-repository.port.js';
import { iso, text } from '../skill-inputs.js';

export const filter = { source: text(200).optional(), period: text(50).optional() };

export const present = (e: RoyaltyEntry) => ({ id: e.id, source: e.source, amountCents: e.amountCents, currency: 'USD', period: e.period, createdAt: iso(e.createdAt) });
