/**
 * Where to go after sign-in: a path on this site only. Anything that does not start with a single
 * `/` (`//evil.example`, `/\evil.example`, `https://…`, `javascript:`) would make sign-in an open
 * redirect, so it falls back to `/agents`.
 */
export function safeNext(next: string | undefined, fallback = '/agents'): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
  try {
    const target = new URL(next, window.location.origin);
    if (target.origin !== window.location.origin) return fallback;
    return `${target.pathname}${target.search}${target.hash}`;
  } catch {
    return fallback;
  }
}
