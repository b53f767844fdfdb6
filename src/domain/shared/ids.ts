/** Branded identifiers: a UserId cannot be passed where an ApiKeyId is expected. */
export type Brand<T, B extends string> = T & { readonly __brand: B };
export type UserId = Brand<string, 'UserId'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a canonical uuid literal: the only user-derived text ever pasted into SQL. */
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);

export function asUserId(v: string): UserId {
  if (!isUuid(v)) throw new TypeError('not a uuid');
  return v.toLowerCase() as UserId;
}
