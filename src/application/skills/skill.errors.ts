import { DomainError } from '../../domain/shared/domain-error.js';
import type { SkillCapability } from '../../domain/skills/skill-capability.js';

/** A skill tried to use a capability its manifest does not declare. HTTP 403; to a model, a refused tool call. */
export class SkillCapabilityDeniedError extends DomainError {
  constructor(readonly slug: string, readonly capability: SkillCapability) {
    super('SKILL_CAPABILITY_DENIED', `The skill ${slug} does not declare the ${capability} capability`, { slug, capability });
  }
}

/** A skill needs an outside service that is not configured here. HTTP 501 `{code: "NOT_CONFIGURED"}`. */
export class SkillNotConfiguredError extends DomainError {
  constructor(what: string) {
    super('NOT_CONFIGURED', `${what} is not configured on this service`);
  }
}
