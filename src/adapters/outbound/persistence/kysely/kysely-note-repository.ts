import { sql, type Kysely, type Selectable } from 'kysely';
import type { Note, NoteRepository } from '../../../../application/ports/note-repository.port.js';
import type { Database, SkillNotesTable } from './database.js';
import { isUuid } from './skill-state-ids.js';

export class KyselyNoteRepository implements NoteRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(userId: string, n: { title: string; content: string }): Promise<Note> {
    const row = await this.db.insertInto('skill_notes').values({ user_id: userId, title: n.title, content: n.content }).returningAll().executeTakeFirstOrThrow();
    return toNote(row);
  }

  async get(id: string): Promise<Note | null> {
    if (!isUuid(id)) return null;
    const row = await this.db.selectFrom('skill_notes').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toNote(row) : null;
  }

  async list(query?: string): Promise<Note[]> {
    let q = this.db.selectFrom('skill_notes').selectAll();
    if (query !== undefined) {
      // the query is matched literally: LIKE's own wildcards in it are escaped
      const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where((eb) => eb.or([eb('title', 'ilike', pattern), eb('content', 'ilike', pattern)]));
    }
    return (await q.orderBy('created_at', 'desc').orderBy(sql`id`, 'desc').execute()).map(toNote);
  }
}

const toNote = (r: Selectable<SkillNotesTable>): Note => ({ id: r.id, title: r.title, content: r.content, createdAt: r.created_at });
