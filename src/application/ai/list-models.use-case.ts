import { inject, injectable } from 'tsyringe';
import type { AiModel, AiProviderName } from '../../domain/ai/ai-model.js';
import { MODEL_CATALOG } from '../../domain/ai/model-catalog.js';
import { AI_PROVIDERS, type AiProvider } from '../ports/ai-provider.port.js';

/** A catalog entry as listed: `available` when the platform can call its provider (key or URL configured). */
export interface ListedModel extends AiModel {
  readonly available: boolean;
}

/** The model catalog, whole or for one provider, with each model's availability. */
@injectable()
export class ListModels {
  private readonly configured: ReadonlySet<string>;

  constructor(@inject(AI_PROVIDERS) providers: AiProvider[]) {
    // configuration does not change while the process runs
    this.configured = new Set(providers.filter((p) => p.isConfigured()).map((p) => p.name));
  }

  execute(provider?: AiProviderName): ListedModel[] {
    return MODEL_CATALOG.filter((m) => provider === undefined || m.provider === provider).map((m) => ({
      ...m,
      available: this.configured.has(m.provider),
    }));
  }
}
