import type { InjectionToken } from 'tsyringe';
import type { WebhookTargetPolicy } from './webhook-delivery.port.js';

/** The webhook skill's target policy (SKILL_WEBHOOK_ALLOW_PRIVATE, SKILL_WEBHOOK_TIMEOUT_MS). */
export const SKILL_WEBHOOK_TARGETS: InjectionToken<WebhookTargetPolicy> = Symbol('SkillWebhookTargets');
