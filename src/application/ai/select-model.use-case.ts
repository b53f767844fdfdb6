import { inject, injectable } from 'tsyringe';
import type { AiModel } from '../../domain/ai/ai-model.js';
import { MODEL_CATALOG } from '../../domain/ai/model-catalog.js';
import { DEFAULT_TASK_TYPE, selectModels } from '../../domain/ai/task-types.js';
import { NotFoundError } from '../errors.js';
import { AI_PROVIDERS, type AiProvider } from '../ports/ai-provider.port.js';
import { AI_SETTINGS, type AiSettings } from '../ports/ai-settings.port.js';

/**
 * The model the platform would pick for a task type (`POST /api/ai/models/select`): the first of
 * the task type's ordering among models whose provider is configured, so the answer can be used.
 * No plan is involved (the endpoint is unauthenticated); chat applies the plan itself.
 * Throws UnknownTaskTypeError (400) and NotFoundError (404: no configured model serves it).
 */
@injectable()
export class SelectModel {
  private readonly usable: readonly AiModel[];

  constructor(
    @inject(AI_PROVIDERS) providers: AiProvider[],
    @inject(AI_SETTINGS) private readonly settings: AiSettings,
  ) {
    const configured = new Set(providers.filter((p) => p.isConfigured()).map((p) => p.name));
    this.usable = MODEL_CATALOG.filter((m) => configured.has(m.provider));
  }

  execute(taskType: string = DEFAULT_TASK_TYPE): AiModel {
    const [first] = selectModels(taskType, this.usable, this.settings.defaultModelId);
    if (!first) throw new NotFoundError(`AI model for task type ${taskType}`);
    return first;
  }
}
