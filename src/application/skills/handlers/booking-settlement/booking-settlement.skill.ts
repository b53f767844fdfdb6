import { inject, injectable } from 'tsyringe';
import { UNIT_OF_WORK, type UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import type { SkillAction, SkillHandler } from '../../skill-handler.js';
import { createEscrowAction } from './create-escrow.action.js';
import { getAction } from './get.action.js';
import { listAction } from './list.action.js';
import { releaseFundsAction } from './release-funds.action.js';
import { simulateSettlementAction } from './simulate-settlement.action.js';
import { booking } from './booking-settlement.shared.js';

/**
 * booking-settlement: escrows of a booking's payout, stored per booking id. An escrow holds the
 * artist's payout (guarantee + backend, see domain/skills/settlement.ts) from `create_escrow`
 * until `release_funds` (held → released, once; releasing again changes nothing).
 */
@injectable()
export class BookingSettlementSkill implements SkillHandler {
  readonly slug = 'booking-settlement';
  readonly version = '1.0.0';
  readonly capabilities = ['payments'] as const;
  readonly actions: readonly SkillAction[];

  constructor(@inject(UNIT_OF_WORK) uow: UserWork<SkillsUserScope, 'escrows'>) {
    this.actions = [
      createEscrowAction({ uow }),
      getAction({ uow }),
      listAction({ uow }),
      releaseFundsAction({ uow }),
      simulateSettlementAction(),
    ];
  }
}
