/** Job kinds of the event and mail delivery (queues `webhooks` and `mail`, pg-boss-queue.ts). */

/** Moves undelivered outbox events to one delivery job per (event, endpoint); sent with each event, and scheduled as a sweep. */
export const RELAY_OUTBOX_EVENTS_JOB = 'webhooks.relay';
export const RELAY_OUTBOX_EVENTS_CRON = '* * * * *';
/** One attempt of one delivery: `{deliveryId}`. */
export const DELIVER_WEBHOOK_JOB = 'webhooks.deliver';
/** One account mail kept in the outbox: `{outboxId}`. */
export const DELIVER_MAIL_JOB = 'mail.deliver';
