import { DomainError } from '../shared/domain-error.js';

/** A value whose JSON text is over the limit (spec Limits: 100 KB; CONTRACT.md 7: 102,400 bytes). HTTP 400. */
export class MemoryValueTooLargeError extends DomainError {
  constructor(key: string, bytes: number, limit: number) {
    super('MEMORY_VALUE_TOO_LARGE', `The value of "${key}" is ${bytes} bytes of JSON; at most ${limit} are allowed`, { key, bytes, limit });
  }
}

/** A bulk write naming more keys than one request may (spec Limits: 50). HTTP 400. */
export class TooManyMemoryKeysError extends DomainError {
  constructor(count: number, limit: number) {
    super('MEMORY_TOO_MANY_KEYS', `${count} keys in one request; at most ${limit} are allowed`, { count, limit });
  }
}

/** A key outside the key rules (src/domain/memory/memory-limits.ts). HTTP 400. */
export class InvalidMemoryKeyError extends DomainError {
  constructor(reason: string) {
    super('MEMORY_KEY_INVALID', `Invalid memory key: ${reason}`);
  }
}

/** The write would leave the agent with more keys than an agent may keep. HTTP 400. */
export class MemoryKeyCapReachedError extends DomainError {
  constructor(current: number, adding: number, limit: number) {
    super('MEMORY_KEY_LIMIT_REACHED', `The agent keeps ${current} keys; ${adding} new ones would pass the limit of ${limit}`, { current, limit });
  }
}

/**
 * A bulk write whose `memory` is not a key→value object, or a write with no value. HTTP 400, with
 * `details` naming the request's field (`path`, e.g. `body/memory`).
 */
export class InvalidMemoryWriteError extends DomainError {
  constructor(message: string, path: string) {
    super('VALIDATION_ERROR', message, { details: [{ path, message }] });
  }
}
