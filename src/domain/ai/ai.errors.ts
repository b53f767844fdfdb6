import { DomainError } from '../shared/domain-error.js';

export class UnknownTaskTypeError extends DomainError {
  constructor(taskType: string, known: readonly string[]) {
    super('UNKNOWN_TASK_TYPE', `Unknown task type: ${taskType}`, { taskType, taskTypes: [...known] });
  }
}

/** A model id that is not in the catalog. */
export class UnknownModelError extends DomainError {
  constructor(model: string) {
    super('UNKNOWN_MODEL', `Unknown model: ${model}`, { model });
  }
}

/** `DEFAULT_MODEL` must name one of the label level's models (CONTRACT section 2). */
export class InvalidDefaultModelError extends DomainError {
  constructor(model: string, allowed: readonly string[]) {
    super('INVALID_DEFAULT_MODEL', `The default model must be one of: ${allowed.join(', ')} (got ${model})`, {
      model,
      allowed: [...allowed],
    });
  }
}

export class InvalidTokenCountError extends DomainError {
  constructor(field: string) {
    super('INVALID_TOKEN_COUNT', `${field} must be a finite number of at least 0`, { field });
  }
}

/** Tools were offered to a model that cannot call them (the catalog says which: `callsTools`). */
export class ToolsUnsupportedError extends DomainError {
  constructor(model: string) {
    super('MODEL_TOOLS_UNSUPPORTED', `Model ${model} cannot call tools`, { model, param: 'tools' });
  }
}
