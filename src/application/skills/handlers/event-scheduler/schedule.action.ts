import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action } from '../skill-inputs.js';
import { schedule, present } from './event-scheduler.shared.js';

/** The `schedule` action of event-scheduler. */
export const scheduleAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'scheduledEvents'> }) =>
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
  });
