import { readFileSync } from 'node:fs';

/**
 * CPU time `pid` has used so far, all its threads together, in clock ticks (utime + stime of
 * /proc/<pid>/stat; 100 a second on Linux). An idle program's count barely moves, so a rising
 * count shows a program busy with what it was just asked (a hash, a stuck loop).
 */
export function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
