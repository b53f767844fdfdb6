import { sql, type Kysely, type Selectable } from 'kysely';
import type { StoredTrack, TrackRepository } from '../../../../application/ports/track-repository.port.js';
import type { Database, SkillTracksTable } from './database.js';

export class KyselyTrackRepository implements TrackRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(userId: string, t: Omit<StoredTrack, 'id' | 'createdAt'>): Promise<StoredTrack> {
    const row = await this.db
      .insertInto('skill_tracks')
      .values({ user_id: userId, title: t.title, artist: t.artist, genre: t.genre, duration_seconds: t.durationSeconds })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toTrack(row);
  }

  async list(genre?: string): Promise<StoredTrack[]> {
    let q = this.db.selectFrom('skill_tracks').selectAll();
    if (genre !== undefined) q = q.where(sql<string>`lower(genre)`, '=', genre.toLowerCase());
    return (await q.orderBy('created_at').orderBy('id').execute()).map(toTrack);
  }
}

const toTrack = (r: Selectable<SkillTracksTable>): StoredTrack => ({
  id: r.id, title: r.title, artist: r.artist, genre: r.genre, durationSeconds: r.duration_seconds, createdAt: r.created_at,
});
