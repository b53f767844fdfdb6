import { describe, expect, it } from 'vitest';
import { AgentInvalidTransitionError } from '../../../../src/domain/agents/agent.errors.js';
import { AGENT_MOVES, AGENT_STATUSES, type AgentMove, type AgentStatus } from '../../../../src/domain/agents/agent-status.js';
import { transition } from '../../../../src/domain/agents/agent-transition.js';

const moved = (from: AgentStatus, move: AgentMove) => {
  const t = transition(from, move);
  return t.kind === 'moved' ? t.to : 'ignored';
};

describe('the agent state machine', () => {
  it('when a deployment is confirmed or fails, then a provisioning agent runs or is in error', () => {
    expect(moved('provisioning', 'deployed')).toBe('running');
    expect(moved('provisioning', 'deploymentFailed')).toBe('error');
  });

  it('when a deployment result arrives for an agent no longer provisioning, then it is ignored, never applied', () => {
    for (const from of ['running', 'error', 'stopped'] as const) {
      expect(transition(from, 'deployed')).toEqual({ kind: 'ignored', status: from });
      expect(transition(from, 'deploymentFailed')).toEqual({ kind: 'ignored', status: from });
    }
  });

  it('start, restart, update and repair run the agent from any state; stop stops it from any state', () => {
    for (const from of AGENT_STATUSES) {
      for (const move of ['start', 'restart', 'update', 'repair'] as const) expect(moved(from, move)).toBe('running');
      expect(moved(from, 'stop')).toBe('stopped');
    }
  });

  it('when the runtime crashes, then a live agent is in error; a crash of a stopped or failed agent is an illegal move', () => {
    expect(moved('running', 'crash')).toBe('error');
    expect(moved('provisioning', 'crash')).toBe('error');
    for (const from of ['stopped', 'error'] as const) {
      expect(() => transition(from, 'crash')).toThrow(AgentInvalidTransitionError);
      try {
        transition(from, 'crash');
      } catch (err) {
        expect((err as AgentInvalidTransitionError).code).toBe('AGENT_INVALID_TRANSITION');
        expect((err as AgentInvalidTransitionError).details).toEqual({ from, move: 'crash' });
      }
    }
  });

  it('the table is total over moves and states except the illegal cells named above', () => {
    const illegal: string[] = [];
    for (const move of AGENT_MOVES) {
      for (const from of AGENT_STATUSES) {
        try {
          transition(from, move);
        } catch {
          illegal.push(`${from}:${move}`);
        }
      }
    }
    expect(illegal.sort()).toEqual(['error:crash', 'stopped:crash']);
  });
});
