import { execFileSync } from 'node:child_process';

/**
 * The uid and gid of an existing OS user (e.g. `nobody`), for ProcessRuntimeOptions.runAs.
 * Throws, naming the user, when it does not exist: a configured user that is missing is an
 * error at boot, not a silent fallback to root.
 */
export function osUser(name: string): { uid: number; gid: number } {
  const id = (flag: '-u' | '-g') => {
    try {
      return Number.parseInt(execFileSync('id', [flag, name], { encoding: 'utf8', timeout: 2_000 }).trim(), 10);
    } catch {
      return Number.NaN;
    }
  };
  const uid = id('-u');
  const gid = id('-g');
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) throw new Error(`The OS user ${JSON.stringify(name)} does not exist`);
  return { uid, gid };
}
