import { createHash } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { toScaled } from '../../../domain/skills/money.js';
import { FULL_BASIS_POINTS, grossFromStreams, splitAmount, type SplitShare } from '../../../domain/skills/split.js';
import { NotFoundError } from '../../errors.js';
import type { SplitExecution, SplitRule } from '../../ports/split-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../../ports/unit-of-work.port.js';
import { WALLET_BALANCES, WALLET_SIGNER, type WalletBalances, type WalletSigner } from '../../ports/wallet-custody.port.js';
import type { SkillAction, SkillHandler } from '../skill-handler.js';
import { SendPayouts } from '../../wallets/send-payouts.use-case.js';
import { queueSend } from '../../wallets/skill-wallets.js';
import { planPayout, presentSettlement } from './instant-split-payouts.js';
import { action, id, iso, money, percentage, text } from './skill-inputs.js';

const share = z.strictObject({ recipientAddress: text(200), percentage, role: text(100), name: text(200) });

/** A rule's shares: percentages (exact to hundredths) summing to exactly 100. */
const splits = z
  .array(share)
  .min(1)
  .max(50)
  .refine((xs) => xs.reduce((a, s) => a + s.percentage, 0) === FULL_BASIS_POINTS, 'percentages must sum to exactly 100')
  .transform((xs): SplitShare[] => xs.map((s) => ({ recipientAddress: s.recipientAddress, role: s.role, name: s.name, basisPoints: s.percentage })));

/** A per-stream rate in dollars, exact to millionths (0.0034). */
const rate = z
  .number()
  .nonnegative()
  .refine((n) => toScaled(n, 6) !== null, 'must have at most 6 decimals')
  .transform((n) => toScaled(n, 6)!);

/**
 * instant-split: stored split rules. `execute_split` adds an amount to the rule's pending total;
 * once the pending total reaches the rule's threshold it is split (largest remainder, parts summing
 * exactly) and recorded as an execution, and pending starts again from zero. With the `wallet`
 * capability the execution also pays each recipient on chain from the owner's wallet (docs/decisions/0087-wallet-capability-for-skills.md).
 */
@injectable()
export class InstantSplitSkill implements SkillHandler {
  readonly slug = 'instant-split';
  readonly version = '1.0.0';
  readonly capabilities = ['payments', 'wallet'] as const;
  readonly actions: readonly SkillAction[];

  constructor(
    @inject(UNIT_OF_WORK) uow: UserWork<'splits' | 'wallets' | 'payouts' | 'jobs'>,
    @inject(WALLET_SIGNER) signer: WalletSigner,
    @inject(WALLET_BALANCES) chain: WalletBalances,
    @inject(SendPayouts) sendPayouts: SendPayouts,
  ) {
    this.actions = [
      action({
        name: 'create_split_rule',
        description: 'Create a split rule: recipients with percentages summing to exactly 100, paid out once the pending amount reaches the threshold.',
        input: z.strictObject({ action: z.literal('create_split_rule'), splits, threshold: money.optional() }),
        capabilities: [],
        run: async (ctx, input) => {
          const rule = await uow.asUser(ctx.userId, (s) => s.splits.insertRule(ctx.userId, { splits: input.splits, thresholdCents: input.threshold ?? 0 }));
          return { splitRule: presentRule(rule) };
        },
      }),
      action({
        name: 'list_pending',
        description: 'List the split rules with an amount waiting to reach its threshold.',
        input: z.strictObject({ action: z.literal('list_pending') }),
        capabilities: [],
        run: async (ctx) => {
          const rules = (await uow.asUser(ctx.userId, (s) => s.splits.listRules())).filter((r) => r.pendingCents > 0);
          return { pending: rules.map(presentRule), count: rules.length, totalPendingCents: rules.reduce((a, r) => a + r.pendingCents, 0) };
        },
      }),
      action({
        name: 'list',
        description: "List all the user's split rules.",
        input: z.strictObject({ action: z.literal('list') }),
        capabilities: [],
        run: async (ctx) => {
          const rules = await uow.asUser(ctx.userId, (s) => s.splits.listRules());
          return { splitRules: rules.map(presentRule), count: rules.length };
        },
      }),
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
      }),
      action({
        name: 'list_payouts',
        description: "Where each on-chain payout of a split rule's executions stands (pending, submitted, confirmed, failed), with its transaction hash.",
        input: z.strictObject({ action: z.literal('list_payouts'), splitId: id }),
        capabilities: [],
        run: async (ctx, input) => {
          const found = await uow.asUser(ctx.userId, async (s) => {
            if (!(await s.splits.getRule(input.splitId))) return null;
            const executions = await s.splits.listExecutions(input.splitId);
            return { executions, payouts: await s.payouts.listForExecutions(executions.map((e) => e.id)) };
          });
          if (!found) throw new NotFoundError('Split rule');
          return {
            splitId: input.splitId,
            executions: found.executions.map((e) => ({
              id: e.id, amountCents: e.amountCents, createdAt: iso(e.createdAt),
              settlement: (() => { const ps = found.payouts.filter((p) => p.executionId === e.id); return ps.length === 0 ? { onChain: false } : presentSettlement(ps, chain); })(),
            })),
          };
        },
      }),
      action({
        name: 'get_balance',
        description: 'Totals paid out per recipient, for one split rule (splitId) or all of them, and what is still pending.',
        input: z.strictObject({ action: z.literal('get_balance'), splitId: id.optional() }),
        capabilities: [],
        run: async (ctx, input) => {
          const { rules, executions } = await uow.asUser(ctx.userId, async (s) => {
            const rules = input.splitId === undefined ? await s.splits.listRules() : [await s.splits.getRule(input.splitId)].filter((r) => r !== null);
            return { rules, executions: rules.length === 0 ? [] : await s.splits.listExecutions(input.splitId) };
          });
          if (input.splitId !== undefined && rules.length === 0) throw new NotFoundError('Split rule');
          const byRecipient = new Map<string, { recipientAddress: string; amountCents: number }>();
          for (const a of executions.flatMap((e) => e.allocations)) {
            const row = byRecipient.get(a.recipientAddress) ?? { recipientAddress: a.recipientAddress, amountCents: 0 };
            row.amountCents += a.amountCents;
            byRecipient.set(a.recipientAddress, row);
          }
          return {
            splitId: input.splitId ?? null,
            distributedCents: executions.reduce((a, e) => a + e.amountCents, 0),
            pendingCents: rules.reduce((a, r) => a + r.pendingCents, 0),
            executions: executions.length,
            recipients: [...byRecipient.values()],
          };
        },
      }),
      action({
        name: 'simulate',
        description: 'Compute gross revenue from streams × per-stream rate (fractions of a cent dropped) and, given splits or a splitId, its exact split; nothing is stored.',
        input: z.strictObject({ action: z.literal('simulate'), streams: z.number().int().nonnegative().max(1e12), rate, splits: splits.optional(), splitId: id.optional() }),
        capabilities: [],
        run: async (ctx, input) => {
          const grossCents = grossFromStreams(input.streams, input.rate);
          let shares = input.splits;
          if (!shares && input.splitId !== undefined) {
            const rule = await uow.asUser(ctx.userId, (s) => s.splits.getRule(input.splitId!));
            if (!rule) throw new NotFoundError('Split rule');
            shares = rule.splits;
          }
          return { streams: input.streams, grossCents, currency: 'USD', allocations: shares ? splitAmount(grossCents, shares).map(presentAllocation) : null };
        },
      }),
    ];
  }
}

const presentAllocation = (a: ReturnType<typeof splitAmount>[number]) => ({
  recipientAddress: a.recipientAddress, name: a.name, role: a.role, percentage: a.basisPoints / 100, amountCents: a.amountCents,
});

const presentRule = (r: SplitRule) => ({
  splitId: r.id,
  splits: r.splits.map((s) => ({ recipientAddress: s.recipientAddress, name: s.name, role: s.role, percentage: s.basisPoints / 100 })),
  thresholdCents: r.thresholdCents, pendingCents: r.pendingCents, currency: 'USD', createdAt: iso(r.createdAt),
});

const presentExecution = (e: SplitExecution) => ({ id: e.id, splitId: e.ruleId, amountCents: e.amountCents, allocations: e.allocations.map(presentAllocation), createdAt: iso(e.createdAt) });
