import type { ApplyInstanceCommand } from '../../../application/instances/apply-instance-command.use-case.js';
import type { HandleRuntimeExit } from '../../../application/instances/handle-runtime-exit.use-case.js';
import type { ReconcileInstances } from '../../../application/instances/reconcile-instances.use-case.js';
import type { AgentRuntime } from '../../../application/ports/agent-runtime.port.js';
import type { InstanceCommands } from '../../../application/ports/instance-commands.port.js';
import type { InstanceLeases } from '../../../application/ports/instance-leases.port.js';
import type { Logger } from '../../../application/ports/logger.port.js';

export interface SupervisorParts {
  runtime: AgentRuntime;
  leases: InstanceLeases;
  commands: InstanceCommands;
  reconcile: Pick<ReconcileInstances, 'execute' | 'renewLeases'>;
  apply: Pick<ApplyInstanceCommand, 'execute'>;
  exits: Pick<HandleRuntimeExit, 'execute'>;
  log: Logger;
  heartbeatMs: number;
  leaseMs: number;
  /** How often open commands are looked for. */
  commandPollMs?: number;
}

/**
 * What drives a worker's instances (CONTRACT.md section 7 "runtime ownership"): the runtime's
 * exits (→ HandleRuntimeExit), a heartbeat (→ ReconcileInstances: renew, take over, restart;
 * run once at start, so a booting worker reconciles at once; a beat that finds the last reconcile
 * still under way, waiting on slow starts, only renews the leases), and the command table, polled
 * (→ ApplyInstanceCommand, several instances at a time, one command at a time per instance).
 * `stop` ends the loops and waits for the work under way (the caller then stops the runtimes
 * and gives the leases back).
 */
export function startInstanceSupervisor(p: SupervisorParts): { stop(): Promise<void> } {
  let stopping = false;
  const running = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    const t = work.catch((err) => p.log.error({ err }, 'instance supervisor work failed'));
    running.add(t);
    void t.finally(() => running.delete(t));
  };

  p.runtime.onExit((userId, exit) => {
    if (!stopping) track(p.exits.execute(userId, exit));
  });

  // One reconcile at a time. Beats were queued behind a reconcile still under way, so its slow starts
  // held back the next renewal: past the lease, another worker took over instances still running
  // here. A beat that finds one under way now renews the leases instead (one renewal at a time).
  let reconciling = false;
  let renewing = false;
  const heartbeat = () => {
    if (stopping) return;
    if (reconciling) {
      if (renewing) return;
      renewing = true;
      track(p.reconcile.renewLeases().catch((err) => p.log.warn({ err }, 'lease renewal failed')).finally(() => (renewing = false)));
      return;
    }
    reconciling = true;
    track(p.reconcile.execute().catch((err) => p.log.error({ err }, 'instance heartbeat failed')).finally(() => (reconciling = false)));
  };
  heartbeat();
  const beatTimer = setInterval(heartbeat, p.heartbeatMs);

  let polling = false;
  const poll = async () => {
    if (polling || stopping) return;
    polling = true;
    try {
      for (;;) {
        if (stopping) return;
        const claimed = await p.commands.claim(p.leases.workerId, p.leaseMs);
        if (!claimed) return;
        track(p.apply.execute(claimed).then((answer) => p.commands.answer(claimed.id, answer)));
      }
    } catch (err) {
      p.log.warn({ err }, 'instance command poll failed');
    } finally {
      polling = false;
    }
  };
  const pollTimer = setInterval(() => void poll(), p.commandPollMs ?? 100);

  return {
    async stop() {
      stopping = true;
      clearInterval(beatTimer);
      clearInterval(pollTimer);
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
