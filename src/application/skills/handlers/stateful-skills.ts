import type { InjectionToken } from 'tsyringe';
import type { SkillHandler } from '../skill-handler.js';
import { BookingSettlementSkill } from './booking-settlement/booking-settlement.skill.js';
import { CalendarSkill } from './calendar/calendar.skill.js';
import { DemoSubmitterSkill } from './demo-submitter/demo-submitter.skill.js';
import { EventSchedulerSkill } from './event-scheduler/event-scheduler.skill.js';
import { EventTicketingSkill } from './event-ticketing/event-ticketing.skill.js';
import { GroupieManagerSkill } from './groupie-manager/groupie-manager.skill.js';
import { GuestlistSkill } from './guestlist/guestlist.skill.js';
import { InstantSplitSkill } from './instant-split/instant-split.skill.js';
import { NotesWorkspaceSkill } from './notes-workspace/notes-workspace.skill.js';
import { RoyaltyTrackerSkill } from './royalty-tracker/royalty-tracker.skill.js';
import { SetlistOracleSkill } from './setlist-oracle/setlist-oracle.skill.js';
import { TreasurySkill } from './treasury/treasury.skill.js';
import { WebhookSkill } from './webhook/webhook.skill.js';

/** The skills whose behaviour is the user's own stored state (and the webhook), resolved by the container. */
export const STATEFUL_SKILL_HANDLERS: readonly InjectionToken<SkillHandler>[] = [
  EventSchedulerSkill,
  BookingSettlementSkill,
  InstantSplitSkill,
  GuestlistSkill,
  EventTicketingSkill,
  RoyaltyTrackerSkill,
  SetlistOracleSkill,
  TreasurySkill,
  WebhookSkill,
  GroupieManagerSkill,
  DemoSubmitterSkill,
  CalendarSkill,
  NotesWorkspaceSkill,
];
