import { z } from 'zod';
import { AGENT_MESSAGE_MAX_CHARS } from './chat.schema.js';

/** The version of the /api/agent interface, reported by the `endpoints` action. */
export const AGENT_API_VERSION = '1';

/** GET /api/agent actions (`action` query); none means `endpoints`. Anything else: 400 UNKNOWN_ACTION. */
export const AGENT_GET_ACTIONS = ['endpoints', 'health', 'sessions', 'session', 'memory', 'skills', 'credentials'] as const;
export type AgentGetAction = (typeof AGENT_GET_ACTIONS)[number];
/** POST /api/agent actions (`action` body field). */
export const AGENT_POST_ACTIONS = ['chat', 'create_session', 'update_skill', 'set_credential'] as const;
export type AgentPostAction = (typeof AGENT_POST_ACTIONS)[number];

export const isAgentGetAction = (a: string): a is AgentGetAction => (AGENT_GET_ACTIONS as readonly string[]).includes(a);
export const isAgentPostAction = (a: string): a is AgentPostAction => (AGENT_POST_ACTIONS as readonly string[]).includes(a);

/** Any text: an id that is not a uuid names nothing, so it answers 404 like another user's. */
const id = z.string().min(1).max(200);

/** First pass: the action is read; its own fields are parsed by the action's schema. */
export const agentGetQuery = z.looseObject({ action: z.string().min(1).max(64).optional() });
export const agentPostBody = z.looseObject({ action: z.string().min(1).max(64) });

export const agentGetSchemas = {
  endpoints: z.object({ action: z.literal('endpoints').optional() }),
  health: z.object({ action: z.literal('health') }),
  sessions: z.object({ action: z.literal('sessions'), agentId: id.optional() }),
  session: z.object({ action: z.literal('session'), sessionId: id }),
  memory: z.object({ action: z.literal('memory'), agentId: id }),
  skills: z.object({ action: z.literal('skills'), agentId: id.optional() }),
  credentials: z.object({ action: z.literal('credentials'), agentId: id.optional() }),
} satisfies Record<AgentGetAction, z.ZodType>;

/** A credential's name: letters, digits, `_`, `-`, `.`, 1 to 64 characters. */
export const CREDENTIAL_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
/** A credential's value: up to 8 KB of text. */
export const CREDENTIAL_VALUE_MAX_CHARS = 8192;

export const agentPostSchemas = {
  chat: z.object({ action: z.literal('chat'), agentId: id, content: z.string().min(1).max(AGENT_MESSAGE_MAX_CHARS), sessionId: id.optional() }),
  create_session: z.object({ action: z.literal('create_session'), agentId: id }),
  update_skill: z.object({ action: z.literal('update_skill'), agentId: id, skillId: z.string().min(1).max(200), enabled: z.boolean() }),
  // zod's messages name the rule broken, never the value
  set_credential: z.object({
    action: z.literal('set_credential'),
    agentId: id,
    name: z.string().regex(CREDENTIAL_NAME, 'letters, digits, _ - . only, 1 to 64 characters'),
    value: z.string().min(1).max(CREDENTIAL_VALUE_MAX_CHARS),
  }),
} satisfies Record<AgentPostAction, z.ZodType>;
