/** The relay refused or could not be reached: a plain Error, so the queue retries the job. */
export class MailAttemptFailed extends Error {}
