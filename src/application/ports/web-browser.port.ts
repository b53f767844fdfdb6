import type { InjectionToken } from 'tsyringe';

// An outside service a skill needs (docs/decisions/0082-outside-service-skills.md). Until a vendor
// adapter replaces it, the default one throws SkillNotConfiguredError (HTTP 501 NOT_CONFIGURED),
// never an invented answer; a vendor failure is UpstreamUnavailableError (502); `signal` aborts.

/** A headless browser reached over the network (browser). */
export interface WebBrowser {
  open(url: string, signal?: AbortSignal): Promise<{ url: string; status: number; title: string; text: string }>;
}

export const WEB_BROWSER: InjectionToken<WebBrowser> = Symbol('WebBrowser');
