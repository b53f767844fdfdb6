/**
 * The agent-host program: one Node process per user instance, hosting all of that user's agents
 * (forked by ProcessAgentRuntime; protocol in agent-host-protocol.ts). It answers a delivery by
 * building the prompt and asking the service for the completion with the instance's gateway
 * token. It holds only what it is given: no database, no service secret, no provider key.
 *
 * Environment (set by the supervisor, nothing else): AGENT_HOST_USER_ID,
 * AGENT_HOST_SERVICE_URL, AGENT_HOST_RUNTIME_VERSION, AGENT_HOST_REQUEST_TIMEOUT_MS,
 * AGENT_HOST_TEST_HOOKS (`1` enables the debug messages). Forked, it speaks over IPC; in a container
 * (AGENT_HOST_TRANSPORT=stdio) it speaks JSON lines on stdin and stdout (agent-host-transport.ts).
 * Either way the gateway token arrives in `init`, never in the environment (`/proc/<pid>/environ`,
 * `docker inspect`). AGENT_HOST_SERVICE_VIA=supervisor (a container without a network): the service
 * calls travel on the same channel and the supervisor makes them (agent-host-relayed-fetch.ts); the
 * service URL is then only used for its path. AGENT_HOST_TRANSPORT=connect (a Swarm task on any node):
 * the program dials its supervisor at AGENT_HOST_CONNECT_URL as the epoch AGENT_HOST_TASK, with the
 * connect secret of AGENT_HOST_CONNECT_SECRET_FILE, and its service calls are relayed on that
 * connection (it never holds the gateway token: agent-host-transport.ts `connectTransport`).
 */
import { HOST_FAILURE, msg, PROTOCOL_VERSION, readMessage, type HostMessage, type HostStats, type SupervisorMessage, type WireDelivery } from './agent-host-protocol.js';
import { buildChatRequest, renderMemory } from './agent-host-prompt.js';
import { CallCancelled, requestCompletion, requestTool, ServiceCallError } from './agent-host-service-client.js';
import { answerWithTools } from './agent-host-tool-loop.js';
import { readFileSync } from 'node:fs';
import { connectTransport, ipcTransport, stdioTransport, type HostTransport } from './agent-host-transport.js';
import { AnsweredAsReply, relayedFetch } from './agent-host-relayed-fetch.js';

const env = process.env;
const serviceUrl = env.AGENT_HOST_SERVICE_URL ?? '';
const runtimeVersion = env.AGENT_HOST_RUNTIME_VERSION ?? 'unknown';
const idleTimeoutMs = Number(env.AGENT_HOST_REQUEST_TIMEOUT_MS) > 0 ? Number(env.AGENT_HOST_REQUEST_TIMEOUT_MS) : 120_000;
const testHooks = env.AGENT_HOST_TEST_HOOKS === '1';

/** AGENT_HOST_TRANSPORT=connect (a swarm task): the program dials its supervisor, as the epoch AGENT_HOST_TASK. */
function connectIn() {
  let secret = '';
  try {
    secret = readFileSync(env.AGENT_HOST_CONNECT_SECRET_FILE ?? '/run/secrets/agent-host-connect', 'utf8').trim();
  } catch {
    process.stderr.write('agent-host: the connect secret cannot be read\n');
    process.exit(2);
  }
  return connectTransport({ url: env.AGENT_HOST_CONNECT_URL ?? '', userId: env.AGENT_HOST_USER_ID ?? '', task: env.AGENT_HOST_TASK ?? '', secret });
}

const connected = !process.send && env.AGENT_HOST_TRANSPORT === 'connect' ? connectIn() : null;
const transport: HostTransport | null = process.send ? ipcTransport() : connected ?? (env.AGENT_HOST_TRANSPORT === 'stdio' ? stdioTransport() : null);
if (!transport) {
  process.stderr.write('agent-host: must be started by its supervisor (no IPC channel, and AGENT_HOST_TRANSPORT is neither stdio nor connect)\n');
  process.exit(2);
}

// Set by `init`, the supervisor's first message on either channel; never read from the environment.
let gatewayToken: string | null = null;
/** Work in progress, by delivery id: `cancel` aborts it. */
const inFlight = new Map<string, AbortController>();
/** Per-agent in-process state: the rendered memory, reused while the memory is unchanged. */
const agents = new Map<string, { memoryJson: string; memoryText: string | null }>();
/** Test hook only: memory kept alive on purpose. */
const ballast: Buffer[] = [];

function send(m: HostMessage): void {
  transport!.send(m);
}

const relay = env.AGENT_HOST_SERVICE_VIA === 'supervisor' ? relayedFetch(send) : null;

transport.onMessage((raw) => {
  const m = readMessage<SupervisorMessage>(raw);
  if (!m) return;
  switch (m.type) {
    case 'init':
      gatewayToken = m.gatewayToken;
      return;
    case 'ping':
      return send({ ...msg, type: 'pong', id: m.id });
    case 'deliver':
      void deliver(m.id, m.delivery, m.stream);
      return;
    case 'cancel':
      inFlight.get(m.id)?.abort();
      inFlight.delete(m.id);
      return;
    case 'reset-memory': {
      const cleared = agents.size;
      agents.clear();
      return send({ ...msg, type: 'ack', id: m.id, cleared });
    }
    case 'stats':
      return send({ ...msg, type: 'ack', id: m.id, stats: cgroupStats() });
    case 'debug-allocate':
      if (!testHooks) return;
      for (let left = m.bytes; left > 0; left -= 8 << 20) ballast.push(Buffer.alloc(Math.min(left, 8 << 20), 1));
      return send({ ...msg, type: 'ack', id: m.id });
    case 'debug-state':
      if (!testHooks) return;
      return send({ ...msg, type: 'ack', id: m.id, agents: agents.size });
    case 'service-head':
    case 'service-chunk':
    case 'service-end':
    case 'service-answer':
    case 'service-error':
    case 'service-final':
      relay?.receive(m);
      return;
    case 'service-reset':
      relay?.endAll();
      return;
    case 'debug-block': {
      if (!testHooks) return;
      const until = Date.now() + m.ms;
      while (Date.now() < until); // deliberately stuck: not even SIGTERM's handler runs
      return send({ ...msg, type: 'ack', id: m.id });
    }
  }
});

async function deliver(id: string, delivery: WireDelivery, stream: boolean): Promise<void> {
  if (gatewayToken === null || !isDelivery(delivery)) {
    return send({ ...msg, type: 'failed', id, code: HOST_FAILURE.badRequest, error: gatewayToken === null ? 'not initialised' : 'malformed delivery' });
  }
  const controller = new AbortController();
  inFlight.set(id, controller);
  try {
    const request = buildChatRequest(delivery, memoryText(delivery));
    const onDelta = stream ? (content: string) => send({ ...msg, type: 'delta', id, content }) : undefined;
    const client = { serviceUrl: relay ? 'http://supervisor' : serviceUrl, gatewayToken, idleTimeoutMs, relay: relay?.call };
    let reply;
    if (delivery.tools && delivery.tools.length > 0) {
      // tool steps are non-streamed; the final text is announced whole
      reply = await answerWithTools(request, delivery.tools, delivery.maxToolSteps ?? 1, {
        complete: (r) => requestCompletion(client, r, controller.signal),
        runTool: (r) => requestTool(client, r, controller.signal),
      });
      if (onDelta && reply.content !== '' && !controller.signal.aborted) onDelta(reply.content);
    } else if (relay && !onDelta) {
      // the reply is the call's answer as it is: the supervisor may take it so (agent-host-protocol.ts `final`)
      reply = await requestCompletion({ ...client, final: id }, request, controller.signal);
    } else {
      reply = await requestCompletion(client, request, controller.signal, onDelta);
    }
    if (!controller.signal.aborted) send({ ...msg, type: 'reply', id, reply });
  } catch (err) {
    // the supervisor took the answer as the reply: the delivery is done
    if (err instanceof AnsweredAsReply || err instanceof CallCancelled || controller.signal.aborted) return;
    if (err instanceof ServiceCallError) return send({ ...msg, type: 'failed', id, code: err.code, error: err.message });
    process.stderr.write(`agent-host: delivery failed: ${(err as Error)?.stack ?? String(err)}\n`);
    send({ ...msg, type: 'failed', id, code: HOST_FAILURE.internal, error: 'the agent runtime failed' });
  } finally {
    inFlight.delete(id);
  }
}

/** A number from the first of `paths` that reads as one (a `key value` file: the line of `key`). */
function readCgroup(paths: string[], key?: string): number | null {
  for (const path of paths) {
    try {
      const text = readFileSync(path, 'utf8');
      const value = key === undefined ? text.trim() : text.split('\n').find((l) => l.startsWith(`${key} `))?.split(' ')[1];
      if (value !== undefined && /^\d+$/.test(value)) return Number(value);
    } catch {
      // not this cgroup version
    }
  }
  return null;
}

/** The container's figures from its cgroup (v2 at /sys/fs/cgroup, v1 under each controller). */
function cgroupStats(): HostStats {
  const usage = readCgroup(['/sys/fs/cgroup/memory.current', '/sys/fs/cgroup/memory/memory.usage_in_bytes']);
  const inactive = readCgroup(['/sys/fs/cgroup/memory.stat'], 'inactive_file') ?? readCgroup(['/sys/fs/cgroup/memory/memory.stat'], 'total_inactive_file') ?? 0;
  const cpuUs = readCgroup(['/sys/fs/cgroup/cpu.stat'], 'usage_usec');
  const cpuNs = cpuUs !== null ? cpuUs * 1000 : readCgroup(['/sys/fs/cgroup/cpuacct/cpuacct.usage', '/sys/fs/cgroup/cpu,cpuacct/cpuacct.usage']);
  return { memoryBytes: usage === null ? null : Math.max(0, usage - inactive), cpuNs, pids: readCgroup(['/sys/fs/cgroup/pids.current', '/sys/fs/cgroup/pids/pids.current']) };
}

function memoryText(d: WireDelivery): string | null {
  const memoryJson = JSON.stringify(d.memory);
  const cached = agents.get(d.agentId);
  if (cached?.memoryJson === memoryJson) return cached.memoryText;
  const text = renderMemory(d.memory);
  agents.set(d.agentId, { memoryJson, memoryText: text });
  return text;
}

function isDelivery(d: unknown): d is WireDelivery {
  const x = d as WireDelivery | null;
  return (
    typeof x === 'object' && x !== null && typeof x.agentId === 'string' && typeof x.model === 'string' && typeof x.content === 'string' &&
    typeof x.config === 'object' && x.config !== null && typeof x.memory === 'object' && x.memory !== null && Array.isArray(x.history) &&
    (x.tools === undefined || Array.isArray(x.tools))
  );
}

function shutdown(code: number): void {
  for (const c of inFlight.values()) c.abort();
  process.exit(code);
}

// Connected in: a dropped connection abandons the work in progress (the supervisor delivers it
// again, on the next connection); the relayed calls of the old connection fail at once.
connected?.onDrop(() => {
  relay?.endAll();
  for (const c of inFlight.values()) c.abort();
  inFlight.clear();
});

// Never orphaned: when the supervisor goes, its end of the channel closes and we go too.
transport.onClose(() => {
  relay?.endAll();
  shutdown(0);
});
process.on('SIGTERM', () => shutdown(0));

// connected in, `hello` is said at each connection (the supervisor's ping answers for readiness)
if (!connected) send({ ...msg, type: 'hello', protocol: PROTOCOL_VERSION, runtimeVersion, pid: process.pid });
