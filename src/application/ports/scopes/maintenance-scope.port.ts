import type { RetentionRepository } from '../retention-repository.port.js';
import type { SharedSystemScope } from './shared-scope.port.js';

/** What the maintenance use cases may touch as the system: the pruning of rows past their retention. */
export interface MaintenanceSystemScope extends SharedSystemScope {
  retention: RetentionRepository;
}
