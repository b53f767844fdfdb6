/** Shared by the cluster and process halves of the embedded server. */
export const SUPERUSER = 'postgres';
/** The cluster's folder inside the data directory. */
export const CLUSTER_SUBDIR = 'pgdata';
export const STOP_TIMEOUT_MS = 15_000;

/** The environment of initdb and the server: nothing of ours (PGDATA, PGPORT...) leaks in. */
export function childEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', LANG: 'C', LC_ALL: 'C', TZ: 'UTC' };
}
