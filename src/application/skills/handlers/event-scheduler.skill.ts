import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { isCalendarDate, isClockTime } from '../../../domain/skills/calendar.js';
import type { ScheduledEvent } from '../../ports/scheduled-event-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../../ports/unit-of-work.port.js';
import type { SkillAction, SkillHandler } from '../skill-handler.js';
import { action, iso, text } from './skill-inputs.js';

const schedule = z.strictObject({
  action: z.literal('schedule'),
  title: text(200),
  date: z.string().refine(isCalendarDate, 'must be a real calendar date YYYY-MM-DD'),
  time: z.string().refine(isClockTime, 'must be a 24-hour time HH:MM'),
  channels: z.array(text(50)).max(20),
});

const list = z.strictObject({ action: z.literal('list') });

/** event-scheduler: stores the user's events (when, and the channels to announce them on) and lists them. */
@injectable()
export class EventSchedulerSkill implements SkillHandler {
  readonly slug = 'event-scheduler';
  readonly version = '1.0.0';
  readonly capabilities = [];
  readonly actions: readonly SkillAction[];

  constructor(@inject(UNIT_OF_WORK) uow: UserWork<'scheduledEvents'>) {
    this.actions = [
      action({
        name: 'schedule',
        description: 'Schedule an event on a date (YYYY-MM-DD) and time (HH:MM) to announce on the given channels; returns the stored event.',
        input: schedule,
        capabilities: [],
        run: async (ctx, input) => {
          const channels = [...new Set(input.channels)];
          const event = await uow.asUser(ctx.userId, (s) => s.scheduledEvents.insert(ctx.userId, { title: input.title, date: input.date, time: input.time, channels }));
          return { event: present(event) };
        },
      }),
      action({
        name: 'list',
        description: "List the user's scheduled events, soonest first.",
        input: list,
        capabilities: [],
        run: async (ctx) => {
          const events = await uow.asUser(ctx.userId, (s) => s.scheduledEvents.list());
          return { events: events.map(present), count: events.length };
        },
      }),
    ];
  }
}

const present = (e: ScheduledEvent) => ({ id: e.id, title: e.title, date: e.date, time: e.time, channels: e.channels, createdAt: iso(e.createdAt) });
