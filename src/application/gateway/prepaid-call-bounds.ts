import type { GatewayPluginId } from '../../domain/gateway/gateway-plugin-id.js';
import { prepaidBoundBreach, type PrepaidBounds } from '../../domain/gateway/prepaid-bounds.js';
import { InvalidInputError } from '../errors.js';

/**
 * Refuses a prepaid call larger than its price covers: 400 VALIDATION_ERROR naming the bound.
 * Called before any challenge is issued and before any payment (one-call grant or MPP) is taken,
 * so a refused body consumes nothing.
 */
export function assertWithinPrepaidBounds(plugin: GatewayPluginId, input: unknown, bounds: PrepaidBounds): void {
  const breach = prepaidBoundBreach(plugin, input, bounds);
  if (breach) throw new InvalidInputError('VALIDATION_ERROR', breach.message, { details: [breach] });
}
