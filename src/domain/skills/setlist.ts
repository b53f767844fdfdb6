/**
 * setlist-oracle `build`: the longest setlist from the user's own tracks of a genre that fits the
 * requested duration (subset sum over seconds). Among equally long sets the one using earlier
 * tracks (the order given, oldest stored first) wins, so the result is deterministic.
 */
export interface SetlistTrack {
  id: string;
  durationSeconds: number;
}

export function buildSetlist<T extends SetlistTrack>(tracks: readonly T[], targetSeconds: number): { tracks: T[]; totalSeconds: number } {
  const target = Math.max(0, Math.floor(targetSeconds));
  // reach[s] = index of the last track used to first reach total s (or -1 for 0), prev chain via from[]
  const reachedBy = new Int32Array(target + 1).fill(-2);
  reachedBy[0] = -1;
  const from = new Int32Array(target + 1).fill(-1);
  tracks.forEach((track, i) => {
    const d = track.durationSeconds;
    for (let s = target; s >= d; s--) {
      if (reachedBy[s] === -2 && reachedBy[s - d] !== -2 && reachedBy[s - d] !== i) {
        reachedBy[s] = i;
        from[s] = s - d;
      }
    }
  });
  let best = target;
  while (best > 0 && reachedBy[best] === -2) best--;
  const chosen: number[] = [];
  for (let s = best; s > 0; s = from[s]!) chosen.push(reachedBy[s]!);
  chosen.sort((a, b) => a - b);
  return { tracks: chosen.map((i) => tracks[i]!), totalSeconds: best };
}
