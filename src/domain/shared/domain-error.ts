/**
 * The one error base of the core. A subclass names a stable machine-readable `code`
 * (SCREAMING_SNAKE_CASE) and carries no transport knowledge: the HTTP adapter's
 * error map decides the status from the code, job handlers treat it as final.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** Extra fields a client may rely on (e.g. `current`, `limit`), copied into the error body. */
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
