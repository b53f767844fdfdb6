/** One attempt failed: a plain Error, so the queue retries it (a DomainError would end the job). */
export class WebhookAttemptFailed extends Error {
  constructor(readonly deliveryId: string, reason: string) {
    super(`webhook delivery ${deliveryId} failed: ${reason}`);
  }
}
