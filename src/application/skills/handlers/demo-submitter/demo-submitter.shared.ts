import type { DemoSubmission } from '../../../ports/demo-repository.port.js';
import { iso } from '../skill-inputs.js';

export const present = (d: DemoSubmission) => ({ id: d.id, title: d.title, artist: d.artist, label: d.label, link: d.link, status: d.status, createdAt: iso(d.createdAt) });
