import { createHash } from 'node:crypto';
import { z } from 'zod';
import { splitAmount } from '../../../../domain/skills/split.js';
import { NotFoundError } from '../../../errors.js';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import type { WalletBalances } from '../../../ports/wallet-balances.port.js';
import type { WalletSigner } from '../../../ports/wallet-signer.port.js';
import { SendPayouts } from '../../../wallets/send-payouts.use-case.js';
import { queueSend } from '../../../wallets/skill-wallets.js';
import { planPayout, presentSettlement } from './instant-split-payouts.js';
import { action, id, money } from '../skill-inputs.js';
import { presentExecution } from './instant-split.shared.js';

/** The `execute_split` action of instant-split. */
export const executeSplitAction = ({ uow, signer, chain, sendPayouts }: { uow: UserWork<SkillsUserScope, 'splits' | 'wallets' | 'payouts' | 'jobs'>; signer: WalletSigner; chain: WalletBalances; sendPayouts: SendPayouts }) =>
  action({
    name: 'execute_split',
    description:
      "Add an amount to a split rule; once the rule's pending total reaches its threshold, split it exactly among the recipients, pay them on chain from the owner's wallet when it can, and record it.",
    input: z.strictObject({ action: z.literal('execute_split'), splitId: id, amount: money.refine((c) => c > 0, 'must be positive') }),
    capabilities: ['payments', 'wallet'],
    run: async (ctx, input) => {
      ctx.requireCapability('payments');
      // One transaction records the execution, resets pending and writes one payout row per
      // recipient with the job that sends them: nothing is paid inside it, so a failure
      // anywhere after it leaves payouts to finish, never a split to pay again.
      const recorded = await uow.asUser(ctx.userId, async (s) => {
        // the rule's row lock also orders executions: two never split the same pending amount
        const rule = await s.splits.getRuleForUpdate(input.splitId);
        if (!rule) throw new NotFoundError('Split rule');
        const pending = rule.pendingCents + input.amount;
        if (pending < rule.thresholdCents || pending === 0) {
          await s.splits.setPending(rule.id, pending);
          return { executed: false as const, splitId: rule.id, pendingCents: pending, thresholdCents: rule.thresholdCents };
        }
        const allocations = splitAmount(pending, rule.splits);
        const plan = planPayout(allocations, await s.wallets.get(), { configured: signer.configured, token: chain.token });
        if (plan.onChain) ctx.requireCapability('wallet');
        const execution = await s.splits.insertExecution(ctx.userId, { ruleId: rule.id, amountCents: pending, allocations });
        await s.splits.setPending(rule.id, 0);
        const payoutIds: string[] = [];
        if (plan.onChain) {
          for (const [position, t] of plan.transfers.entries()) {
            const requestHash = createHash('sha256').update(`${execution.id}:${position}`).digest('hex');
            const p = await s.payouts.insert(ctx.userId, { executionId: execution.id, position, idempotencyKey: null, requestHash, to: t.to, amount: t.amount, amountCents: t.allocation.amountCents });
            payoutIds.push(p.id);
          }
          await queueSend(s, ctx.userId, payoutIds);
        }
        return { executed: true as const, rule, execution, plan, payoutIds };
      });
      if (!recorded.executed) return recorded;
      const { rule, execution, plan, payoutIds } = recorded;
      const done = { executed: true, splitId: rule.id, pendingCents: 0, execution: presentExecution(execution) };
      if (!plan.onChain) return { ...done, settlement: { onChain: false, reason: plan.reason } };
      // the first attempt, now; the queued job finishes what this one cannot
      const sent = await sendPayouts.run(ctx.userId, payoutIds, ctx.signal ? { signal: ctx.signal } : {});
      return { ...done, settlement: { ...presentSettlement(sent.payouts, chain), ...(sent.stoppedBy ? { retrying: sent.stoppedBy.message } : {}) } };
    },
  });
