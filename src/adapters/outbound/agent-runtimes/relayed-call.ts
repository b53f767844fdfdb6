import { RUNTIME_CHAT_PATH, RUNTIME_TOOLS_PATH, type HostMessage } from '../../../agent-host/agent-host-protocol.js';

/** A program's `service-call`, as both relays receive it (the docker runtime's over HTTP, the process runtime's in-process). */
export type RelayedCall = Extract<HostMessage, { type: 'service-call' }>;

/** A request body above this is not a chat or tool call of ours (the answer's own limit is the service's). */
const MAX_BODY = 8 * 2 ** 20;

const KINDS = new Map([
  [RUNTIME_CHAT_PATH, 'chat'],
  [RUNTIME_TOOLS_PATH, 'tools'],
] as const);

/**
 * Which of the two runtime calls `m` is, or null when it is neither or malformed (another path,
 * a field that is not text, a body over 8 MiB): the one rule by which both relays refuse a call
 * with `service-error`, so a program can reach nothing else through either.
 */
export function relayedCallKind(m: RelayedCall): 'chat' | 'tools' | null {
  const kind = KINDS.get(m.path as never);
  if (!kind || typeof m.body !== 'string' || m.body.length > MAX_BODY || typeof m.authorization !== 'string' || typeof m.accept !== 'string') return null;
  return kind;
}
