import { startFakeOpenAiServer } from '../test/support/ai/fake-openai-server.js';

/**
 * The benchmark's provider: the tests' OpenAI wire-format fake in its own process (so neither the
 * load generator nor the service shares its event loop), nothing recorded. Reports its base URL
 * over IPC.
 */
const server = await startFakeOpenAiServer({ apiKey: process.env.FAKE_API_KEY, record: false });
process.send?.({ baseUrl: server.baseUrl });
const stop = () => void server.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
