/** Ids a caller (or a model) passes to a skill are free text; one that is not a uuid names no row, and must not reach a uuid cast. */
export const isUuid = (v: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);
