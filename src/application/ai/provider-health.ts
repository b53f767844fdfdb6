import { inject, injectable } from 'tsyringe';
import { AI_PROVIDERS, type AiProvider } from '../ports/ai-provider.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { type ProviderHealthSettings, PROVIDER_HEALTH_SETTINGS } from '../ports/provider-health-settings.port.js';

export interface ProviderHealthReport {
  /** Every provider by name: true when it is configured and its model list answered in time. */
  readonly providers: Readonly<Record<string, boolean>>;
  readonly status: 'healthy' | 'degraded';
  /** Clock time the check finished (ms). */
  readonly checkedAt: number;
}

/**
 * The AI health check behind `GET /api/ai/health`: every provider's `listModels` (never billed)
 * with a short timeout, all at once, cached for `ttlMs`; concurrent callers share one check.
 *
 * Unconfigured providers are reported `false` (they cannot be reached) but do not make the
 * status `degraded`: a deployment that uses only some providers on purpose would otherwise never
 * be healthy. `healthy` means at least one provider is configured and every configured one
 * answered; `degraded` means a configured one failed or none is configured. The check itself
 * never throws, so the spec's `error`/503 is left to failures outside it.
 * Register as a singleton: the cache lives in the instance.
 */
@injectable()
export class ProviderHealth {
  private cached: ProviderHealthReport | undefined;
  private running: Promise<ProviderHealthReport> | undefined;

  constructor(
    @inject(AI_PROVIDERS) private readonly providers: AiProvider[],
    @inject(CLOCK) private readonly clock: Clock,
    @inject(PROVIDER_HEALTH_SETTINGS) private readonly settings: ProviderHealthSettings,
  ) {}

  async check(): Promise<ProviderHealthReport> {
    if (this.cached && this.clock.now().getTime() - this.cached.checkedAt < this.settings.ttlMs) return this.cached;
    this.running ??= this.probeAll().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async probeAll(): Promise<ProviderHealthReport> {
    const results = await Promise.all(this.providers.map(async (p) => [p.name, await this.probe(p)] as const));
    const configured = this.providers.filter((p) => p.isConfigured());
    const healthy = configured.length > 0 && configured.every((p) => results.find(([name]) => name === p.name)?.[1]);
    this.cached = { providers: Object.fromEntries(results), status: healthy ? 'healthy' : 'degraded', checkedAt: this.clock.now().getTime() };
    return this.cached;
  }

  private async probe(provider: AiProvider): Promise<boolean> {
    if (!provider.isConfigured()) return false;
    // The adapter has its own timeout; this one is the health check's guarantee of answering even
    // if an adapter's does not fire.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), this.settings.timeoutMs + 250)));
    try {
      return await Promise.race([provider.listModels({ timeoutMs: this.settings.timeoutMs }).then(() => true), deadline]);
    } catch {
      // any failure (timeout, HTTP error, bad key) means "not reachable" here; the reason is not reported
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}
