import type { ChatMessage } from '../../ports/ai-provider.port.js';

/**
 * The agent plugin's bounded task loop, as pure text rules. Every call but the last is one
 * working step: the model either works on (its text becomes context for the next step) or, when
 * done, answers on a line starting with `FINAL:`. The last allowed call must answer.
 */
export const DEFAULT_AGENT_STEPS = 3;
export const MAX_AGENT_STEPS = 10;

const FINAL = /^\s*FINAL:\s*/;

export function taskPrompt(task: string, maxSteps: number): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        `You are a task agent with at most ${maxSteps} replies to complete the user's task. ` +
        'Use each reply for one step of work: plan, then carry the plan out. ' +
        'As soon as you have the final answer, reply with a line starting with "FINAL:" followed by the answer.',
    },
    { role: 'user', content: task },
  ];
}

/** The messages after a working step whose text was `work`. */
export const nextStep = (messages: readonly ChatMessage[], work: string, last: boolean): ChatMessage[] => [
  ...messages,
  { role: 'assistant', content: work },
  { role: 'user', content: last ? 'Give the final answer to the task now, and nothing else.' : 'Continue with the next step.' },
];

/** The answer in a step's text, when the step gave one. */
export function finalAnswer(text: string): string | null {
  return FINAL.test(text) ? text.replace(FINAL, '') : null;
}

/** The final call's text without a `FINAL:` marker the model may still have put first. */
export const withoutMarker = (text: string): string => text.replace(FINAL, '');
