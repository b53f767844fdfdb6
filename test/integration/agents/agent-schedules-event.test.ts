import { describe, expect, it } from 'vitest';
import { call, signUpAndIn } from '../../support/http-client.js';
import { runningAgent, startChatService } from '../../support/agents/chat-service.js';

/**
 * Issue 9's "done when", end to end with nothing of ours replaced: the real skill registry, the
 * install endpoint, the forked agent-host program, and a local provider speaking the OpenAI wire
 * format that answers a plain-words request with a tool call to event-scheduler. The event must
 * be stored for the agent's owner, and the model must see the stored event as the tool's result.
 */

const t = await startChatService();
const { app, infra, provider } = t;
const owner = infra.pools.owner;

describe('an agent with event-scheduler installed', () => {
  it('when asked in plain words to schedule an event, then it calls the skill as a tool and the event is stored for its owner', async () => {
    const { user, agent } = await runningAgent(t, { name: 'Booker' });
    const agentId = agent.id;

    const installed = await call(app, { method: 'POST', url: '/api/skills', headers: user.headers, payload: { skillId: 'event-scheduler', agentId } });
    expect(installed.status).toBe(200);

    const from = provider.requests.length;
    provider.setScript([
      {
        kind: 'tool-calls',
        text: '',
        calls: [{ id: 'call_gig', name: 'event-scheduler__schedule', args: { title: 'Warehouse gig', date: '2026-12-31', time: '22:30', channels: ['web'] } }],
      },
      { kind: 'reply', chunks: ['Your gig is scheduled for 31 December at 22:30.'] },
    ]);
    const res = await call(app, {
      method: 'POST',
      url: '/api/chat',
      headers: user.headers,
      payload: { agentId, content: 'Please schedule my warehouse gig on New Year’s Eve at half past ten in the evening.' },
    });
    expect(res.status).toBe(200);
    expect(res.body.reply.content).toBe('Your gig is scheduled for 31 December at 22:30.');

    // the model was offered the installed skill's actions as tools
    const [first, second] = provider.requests.slice(from).filter((r) => r.method === 'POST');
    expect(first!.body.tools.map((t: any) => t.function.name)).toEqual(['event-scheduler__schedule', 'event-scheduler__list']);
    expect(first!.body.tools[0].function.parameters.required).toEqual(expect.arrayContaining(['title', 'date', 'time', 'channels']));

    // the event is stored for the owner, as the skill itself lists it
    const listed = await call(app, { method: 'POST', url: '/api/skills/event-scheduler', headers: user.headers, payload: { action: 'list' } });
    expect(listed.status).toBe(200);
    expect(listed.body.events).toEqual([expect.objectContaining({ title: 'Warehouse gig', date: '2026-12-31', time: '22:30', channels: ['web'] })]);

    // and the model saw that stored event as the tool's result
    const result = JSON.parse(second!.body.messages.find((m: any) => m.role === 'tool').content);
    expect(result).toMatchObject({ success: true, event: { id: listed.body.events[0].id, title: 'Warehouse gig' } });

    // another user sees none of it
    const stranger = await signUpAndIn(app);
    const theirs = await call(app, { method: 'POST', url: '/api/skills/event-scheduler', headers: stranger.headers, payload: { action: 'list' } });
    expect(theirs.body.events).toEqual([]);
  });
});
