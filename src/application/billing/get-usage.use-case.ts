import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { USAGE_METER, type UsageMeter, type UsageSnapshot } from '../ports/usage-meter.port.js';

/** Today's units of the caller (they reset at 00:00 UTC) and their credits. */
@injectable()
export class GetUsage {
  constructor(@inject(USAGE_METER) private readonly meter: UsageMeter) {}

  execute(actor: Actor): Promise<UsageSnapshot> {
    return this.meter.usage(actor.userId);
  }
}
