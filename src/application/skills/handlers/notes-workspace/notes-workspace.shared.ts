import type { Note } from '../../../ports/note-repository.port.js';
import { id, iso } from '../skill-inputs.js';

export const present = (n: Note) => ({ id: n.id, title: n.title, content: n.content, createdAt: iso(n.createdAt) });
