/**
 * How catalog ids (`<vendor>/<model>`) become the names providers expect:
 * - openrouter: the full id, unchanged (`deepseek/deepseek-r1`): OpenRouter's own ids have this form;
 * - openai, anthropic, google, ollama: the id without its first segment
 *   (`openai/gpt-4o` → `gpt-4o`, `anthropic/claude-sonnet-4-20250514` → `claude-sonnet-4-20250514`,
 *   `google/gemini-2.0-flash` → `gemini-2.0-flash`, `ollama/llama3.2` → `llama3.2`).
 * An id without a slash is sent as it is.
 */
export function withoutVendor(modelId: string): string {
  const slash = modelId.indexOf('/');
  return slash === -1 ? modelId : modelId.slice(slash + 1);
}
