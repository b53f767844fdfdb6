import type { HeartbeatState } from '../../../../domain/heartbeat/heartbeat-schedule.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The spec's heartbeat fields. */
export const heartbeatFields = (h: HeartbeatState) => ({
  frequency: h.frequency,
  enabled: h.enabled,
  lastHeartbeat: iso(h.lastHeartbeat),
  nextHeartbeat: iso(h.nextHeartbeat),
});
