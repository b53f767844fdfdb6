import { z } from 'zod';
import type { Fan } from '../../../ports/fan-repository.port.js';
import { iso } from '../skill-inputs.js';

export const count = z.number().int().nonnegative().max(1_000_000_000).default(0);

export const present = (f: Fan) => ({ id: f.id, name: f.name, email: f.email, city: f.city, showsAttended: f.showsAttended, purchases: f.purchases, streams: f.streams, createdAt: iso(f.createdAt) });
