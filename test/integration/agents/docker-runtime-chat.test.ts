import { describe, expect, it } from 'vitest';
import { agentStatus, provisionedUser, waitFor } from '../../support/agents/instances.js';
import { call } from '../../support/http-client.js';
import { startDockerStandIn } from '../../support/runtime/docker-engine-stand-in.js';
import { startChatService } from '../../support/agents/chat-service.js';

/**
 * AGENT_RUNTIME=docker end to end: the worker provisions the user's instance as a container
 * through the Engine API (a stand-in daemon on a unix socket that runs the image's program, the
 * real agent-host, as a local process), and a chat message reaches that program on the
 * container's attach stream; the program asks the service's /api/runtime/chat with the
 * container's gateway token, and the reply comes back to POST /api/chat.
 */
const engine = await startDockerStandIn();
const t = await startChatService({
  run: 'worker',
  env: { AGENT_RUNTIME: 'docker', DOCKER_SOCKET: engine.socketPath, RUNTIME_DOCKER_IMAGE: 'agent-host-runtime:test', RATE_LIMIT_INSTANCE: '100000' },
});
const { provider } = t;
const owner = t.infra.pools.owner;

describe('chat on the docker runtime', () => {
  it('when a subscriber provisions an agent and talks to it, then the containerised program answers through the service; after a restart it answers again; stopped, it refuses', async () => {
    const { user, agent } = await provisionedUser(t.app, owner);
    expect(await waitFor(() => agentStatus(owner, agent.id), (s) => s !== 'provisioning')).toBe('running');
    const send = (content: string) => call(t.app, { method: 'POST', url: '/api/chat', headers: user.headers, payload: { agentId: agent.id, content } });

    // one container of the image, attached
    const [container] = [...engine.containers.values()];
    expect(container).toMatchObject({ state: 'running' });
    expect(container!.config.Labels['agent-host.user']).toBe(user.id);
    expect(engine.requests.some((q) => q.url === `/v1.43/containers/${container!.id}/attach?stream=1&stdin=1&stdout=1&stderr=1`)).toBe(true);

    const chat = await send('Hello from outside');
    expect(chat.status).toBe(200);
    expect(chat.body.reply).toMatchObject({ agentId: agent.id, role: 'assistant', content: 'Hello, world!' });
    expect(provider.lastRequest().body.messages.at(-1)).toEqual({ role: 'user', content: 'Hello from outside' });

    const restart = await call(t.app, { method: 'POST', url: `/api/instance/${user.id}/restart`, headers: user.headers });
    expect(restart.status).toBe(200);
    expect([...engine.containers.values()].map((c) => c.id)).not.toContain(container!.id);
    const again = await send('Still there?');
    expect(again.status).toBe(200);
    expect(again.body.reply).toMatchObject({ content: 'Hello, world!' });

    const stop = await call(t.app, { method: 'POST', url: `/api/instance/${user.id}/stop`, headers: user.headers });
    expect(stop.status).toBe(200);
    expect(engine.containers.size).toBe(0);
    expect((await send('Anyone?')).status).toBe(409);
  }, 60_000);
});
