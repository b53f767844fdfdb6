import { z } from 'zod';

/**
 * The OpenAI-compatible API's request and response objects (OpenAI's Chat Completions and Models,
 * CONTRACT.md "OpenAI-compatible API"). Every field OpenAI's request has that this service takes is
 * checked here; a field it does not know is refused (400 with its name as `param`), as OpenAI
 * refuses one. `null` stands for absent, as OpenAI's own clients send it.
 */

const MESSAGE_CHARS = 1_000_000;

/** An object that refuses other fields, each by its own path (a strict object's refusal names no path). */
const closed = <S extends z.ZodRawShape>(shape: S) => z.object(shape).catchall(z.never({ error: 'is not a parameter this API takes' }));
const ID = z.string().min(1).max(200);

/** Text parts only: images and audio are not taken (400 naming the part). */
const textPart = closed({ type: z.literal('text'), text: z.string().max(MESSAGE_CHARS) });
const content = z.union([z.string().max(MESSAGE_CHARS), z.array(textPart).min(1).max(100)]);

const toolCall = closed({
  id: ID,
  type: z.literal('function'),
  function: closed({ name: z.string().min(1).max(64), arguments: z.string().max(100_000) }),
});

const name = z.string().min(1).max(64).optional();
const message = z.discriminatedUnion('role', [
  closed({ role: z.enum(['system', 'developer', 'user']), content, name }),
  closed({ role: z.literal('assistant'), content: content.nullish(), name, tool_calls: z.array(toolCall).min(1).max(64).optional(), refusal: z.string().nullish() }),
  closed({ role: z.literal('tool'), content, tool_call_id: ID }),
]);
export type OpenAiMessage = z.infer<typeof message>;

/** OpenAI's rule for a function name. */
const functionName = z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, _ or -');

const tool = closed({
  type: z.literal('function'),
  function: closed({
    name: functionName,
    description: z.string().max(4_000).optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullish(),
  }),
});

const toolChoice = z.union([z.enum(['none', 'auto', 'required']), closed({ type: z.literal('function'), function: closed({ name: functionName }) })]);

const responseFormat = closed({
  type: z.enum(['text', 'json_object'], { error: 'must be text or json_object (json_schema is not supported)' }),
});

const tokens = z.number().int().min(1).max(1_000_000);

export const v1ChatBody = z
  .strictObject({
    model: ID,
    messages: z.array(message).min(1, 'must not be empty').max(1000),
    stream: z.boolean().nullish(),
    stream_options: closed({ include_usage: z.boolean().optional() }).nullish(),
    max_tokens: tokens.nullish(),
    max_completion_tokens: tokens.nullish(),
    temperature: z.number().min(0).max(2).nullish(),
    top_p: z.number().min(0).max(1).nullish(),
    stop: z.union([z.string().min(1).max(500), z.array(z.string().min(1).max(500)).max(4)]).nullish(),
    tools: z.array(tool).max(128).nullish(),
    tool_choice: toolChoice.nullish(),
    parallel_tool_calls: z.boolean().nullish(),
    response_format: responseFormat.nullish(),
    user: z.string().max(256).nullish(),
    // taken for the libraries that always send them; only their neutral values exist here
    n: z.literal(1, { error: 'must be 1: one choice per completion' }).nullish(),
    seed: z.number().int().nullish(),
    frequency_penalty: z.number().min(-2).max(2).nullish(),
    presence_penalty: z.number().min(-2).max(2).nullish(),
  })
  .meta({ id: 'ChatCompletionRequest' });
export type V1ChatBody = z.infer<typeof v1ChatBody>;

const usage = z.object({ prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number() });
const toolCallOut = z.object({ id: z.string(), type: z.literal('function'), function: z.object({ name: z.string(), arguments: z.string() }) });

export const chatCompletionResponse = z
  .object({
    id: z.string(),
    object: z.literal('chat.completion'),
    created: z.number().int(),
    model: z.string(),
    choices: z.array(
      z.object({
        index: z.number().int(),
        message: z.object({ role: z.literal('assistant'), content: z.string().nullable(), refusal: z.null(), tool_calls: z.array(toolCallOut).optional() }),
        logprobs: z.null(),
        finish_reason: z.enum(['stop', 'length', 'tool_calls']),
      }),
    ),
    usage,
  })
  .meta({ id: 'ChatCompletion' });

export const modelListResponse = z
  .object({
    object: z.literal('list'),
    data: z.array(z.object({ id: z.string(), object: z.literal('model'), created: z.number().int(), owned_by: z.string() })),
  })
  .meta({ id: 'ModelList' });

export const openAiErrorResponse = z
  .object({ error: z.object({ message: z.string(), type: z.string(), param: z.string().nullable(), code: z.string().nullable() }) })
  .meta({ id: 'OpenAiError' });

/** The streamed answer, as the document describes it. */
export const chatCompletionChunks = {
  type: 'string',
  description: '`stream: true`: `data: {chat.completion.chunk}` events (text deltas, tool_call deltas, the finish reason, a usage chunk with `stream_options.include_usage`), ending `data: [DONE]`',
} as const;
