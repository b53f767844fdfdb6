import { z } from 'zod';
import type { SkillAction, SkillCallContext, SkillHandler } from '../../../src/application/skills/skill-handler.js';
import { SkillNotConfiguredError } from '../../../src/application/skills/skill.errors.js';

/** What a recording handler was called with, in order. */
export interface RecordedSkillCall {
  slug: string;
  action: string;
  userId: string;
  agentId: string | null;
  via: 'http' | 'tool';
  input: unknown;
}

/**
 * Real SkillHandlers for tests (the skills area provides the production ones): each run records
 * its context and input, so a test sees exactly what ran, for whom, with what.
 *
 * - `calendar` (manifest: memory): `schedule` (records, returns an event id); `remember`
 *   (declares memory; asks for `network` before doing anything: denied by the manifest);
 *   `pay` (declares `wallet`, which the manifest does not: never runs); `explode` (crashes);
 *   `unconfigured` (throws a DomainError).
 * - `email` (manifest: messaging): `send`.
 * - `webhook` (manifest: network): `post`.
 */
export function recordingSkills(): { handlers: SkillHandler[]; calls: RecordedSkillCall[] } {
  const calls: RecordedSkillCall[] = [];
  const record = (slug: string, action: string, ctx: SkillCallContext, input: unknown) =>
    calls.push({ slug, action, userId: ctx.userId, agentId: ctx.agentId, via: ctx.via, input });
  const action = <S extends z.ZodType>(a: SkillAction<S>): SkillAction => a as unknown as SkillAction;

  const calendar: SkillHandler = {
    slug: 'calendar',
    version: '1.0.0',
    capabilities: ['memory'],
    actions: [
      action({
        name: 'schedule',
        description: 'Put an event in the calendar.',
        input: z.object({ action: z.literal('schedule'), title: z.string().min(1).max(200), minutes: z.number().int().positive().optional() }),
        capabilities: [],
        run: async (ctx, input) => {
          record('calendar', 'schedule', ctx, input);
          return { eventId: `evt-${calls.length}`, title: input.title };
        },
      }),
      action({
        name: 'remember',
        description: 'Remember a fact.',
        input: z.object({ action: z.literal('remember'), fact: z.string() }),
        capabilities: ['memory'],
        run: async (ctx, input) => {
          ctx.requireCapability('network');
          record('calendar', 'remember', ctx, input);
          return {};
        },
      }),
      action({
        name: 'pay',
        description: 'Pay for an event.',
        input: z.object({ action: z.literal('pay'), amount: z.number() }),
        capabilities: ['wallet'],
        run: async (ctx, input) => {
          record('calendar', 'pay', ctx, input);
          return {};
        },
      }),
      action({
        name: 'explode',
        description: 'Crash.',
        input: z.object({ action: z.literal('explode') }),
        capabilities: [],
        run: async (ctx, input) => {
          record('calendar', 'explode', ctx, input);
          throw new TypeError('boom: secret internals');
        },
      }),
      action({
        name: 'unconfigured',
        description: 'Needs an outside service.',
        input: z.object({ action: z.literal('unconfigured') }),
        capabilities: [],
        run: async () => {
          throw new SkillNotConfiguredError('The calendar provider');
        },
      }),
    ],
  };
  const email: SkillHandler = {
    slug: 'email',
    version: '1.0.0',
    capabilities: ['messaging'],
    actions: [
      action({
        name: 'send',
        description: 'Send an email.',
        input: z.object({ action: z.literal('send'), to: z.string(), body: z.string() }),
        capabilities: ['messaging'],
        run: async (ctx, input) => {
          ctx.requireCapability('messaging');
          record('email', 'send', ctx, input);
          return { sent: true };
        },
      }),
    ],
  };
  const webhook: SkillHandler = {
    slug: 'webhook',
    version: '1.0.0',
    capabilities: ['network'],
    actions: [
      action({
        name: 'post',
        description: 'POST to a URL.',
        input: z.object({ action: z.literal('post'), url: z.string() }),
        capabilities: ['network'],
        run: async (ctx, input) => {
          record('webhook', 'post', ctx, input);
          return {};
        },
      }),
    ],
  };
  return { handlers: [calendar, email, webhook], calls };
}
