import { inject, injectable } from 'tsyringe';
import type { RequestTimingRow } from '../ports/metrics-store.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { MetricsSystemScope } from '../ports/scopes/metrics-scope.port.js';

/** Adds one flush of per-minute request aggregates (one statement for the whole batch). */
@injectable()
export class RecordRequestTimings {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: SystemWork<MetricsSystemScope, 'metrics'>) {}

  async execute(rows: RequestTimingRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.uow.asSystem((s) => s.metrics.addRequestTimings(rows));
  }
}
