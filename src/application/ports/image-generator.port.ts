import type { InjectionToken } from 'tsyringe';

// An outside service a skill needs (docs/decisions/0082-outside-service-skills.md). Until a vendor
// adapter replaces it, the default one throws SkillNotConfiguredError (HTTP 501 NOT_CONFIGURED),
// never an invented answer; a vendor failure is UpstreamUnavailableError (502); `signal` aborts.

/** Image generation (visual-synthesizer). */
export interface ImageGenerator {
  generate(request: { prompt: string; style?: string | undefined }, signal?: AbortSignal): Promise<{ imageUrl: string }>;
}

export const IMAGE_GENERATOR: InjectionToken<ImageGenerator> = Symbol('ImageGenerator');
