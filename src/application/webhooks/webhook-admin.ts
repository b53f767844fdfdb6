import type { Actor } from '../auth/actor.js';
import { AdminRequiredError } from '../auth/auth.errors.js';

/**
 * Admins manage the outbound event endpoints (CONTRACT.md section 4: admin by e-mail, decided per
 * request). Endpoints belong to no user: the system unit of work keeps them.
 */
export function requireWebhookAdmin(actor: Actor): void {
  if (actor.role !== 'admin') throw new AdminRequiredError();
}
