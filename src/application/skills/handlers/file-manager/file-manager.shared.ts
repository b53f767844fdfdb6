

/** A file's content, base64: at most 1 MB decoded, within the body limit. */
export const BASE64_MAX_CHARS = Math.ceil((1024 * 1024) / 3) * 4;
