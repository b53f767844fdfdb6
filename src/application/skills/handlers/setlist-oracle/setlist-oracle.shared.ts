import type { StoredTrack } from '../../../ports/track-repository.port.js';
import { iso } from '../skill-inputs.js';

export const present = (t: StoredTrack) => ({ id: t.id, title: t.title, artist: t.artist, genre: t.genre, durationSeconds: t.durationSeconds, createdAt: iso(t.createdAt) });
