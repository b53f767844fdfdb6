import { inject, injectable } from 'tsyringe';
import { UNIT_OF_WORK, type UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import type { SkillAction, SkillHandler } from '../../skill-handler.js';
import { createEventAction } from './create-event.action.js';
import { purchaseAction } from './purchase.action.js';
import { getAction } from './get.action.js';
import { listAction } from './list.action.js';
import { tiers } from './event-ticketing.shared.js';

/**
 * event-ticketing: the user's ticketed events, each with tiers of a price and a capacity.
 * `purchase` takes a seat with one conditional update, so the last seat goes to exactly one buyer.
 * No payment is taken here: the ticket records the tier's price.
 */
@injectable()
export class EventTicketingSkill implements SkillHandler {
  readonly slug = 'event-ticketing';
  readonly version = '1.0.0';
  readonly capabilities = [];
  readonly actions: readonly SkillAction[];

  constructor(@inject(UNIT_OF_WORK) uow: UserWork<SkillsUserScope, 'ticketing'>) {
    this.actions = [
      createEventAction({ uow }),
      purchaseAction({ uow }),
      getAction({ uow }),
      listAction({ uow }),
    ];
  }
}
