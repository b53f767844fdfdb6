import type { SystemMetricsStore, UserMetricsReader } from '../metrics-store.port.js';
import type { UserRepository } from '../user-repository.port.js';
import type { SharedSystemScope, SharedUserScope } from './shared-scope.port.js';

/** What the metrics use cases may touch as one user. */
export interface MetricsUserScope extends SharedUserScope {
  metrics: UserMetricsReader;
  // Of another area: the user's row says whether they may see the metrics.
  users: UserRepository;
}

/** What they may touch as the system. */
export interface MetricsSystemScope extends SharedSystemScope {
  metrics: SystemMetricsStore;
}
