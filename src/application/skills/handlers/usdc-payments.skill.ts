import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { USER_WALLETS, type UserWallets } from '../../ports/user-wallets.port.js';
import type { SkillHandler } from '../skill-handler.js';
import { defineAction } from './define-action.js';

/** An idempotency key: the same key twice is one payment. */
const idempotencyKey = z.string().min(1).max(200).regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces');

/**
 * usdc-payments: the user's wallet. No spec shape; ours is `{action: "balance"}`,
 * `{action: "send", to, amount, idempotencyKey?}` (without a key, an identical send within ten
 * minutes is the same payment) and `{action: "payment_status", paymentId | idempotencyKey}`.
 */
@injectable()
export class UsdcPaymentsSkill implements SkillHandler {
  readonly slug = 'usdc-payments';
  readonly version = '1.0.0';
  readonly capabilities = ['network', 'wallet', 'payments'] as const;
  readonly actions;

  constructor(@inject(USER_WALLETS) wallets: UserWallets) {
    this.actions = [
      defineAction({
        name: 'balance',
        description: "Read the user's wallet address and USDC balance.",
        capabilities: ['network', 'wallet'],
        input: z.strictObject({ action: z.literal('balance') }),
        async run(ctx) {
          ctx.requireCapability('wallet');
          return { wallet: await wallets.balance(ctx.userId, ctx.signal) };
        },
      }),
      defineAction({
        name: 'send',
        description: "Send USDC from the user's wallet to an address; amount is decimal text such as \"12.50\".",
        capabilities: ['network', 'wallet', 'payments'],
        input: z.strictObject({
          action: z.literal('send'),
          to: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'a 0x-prefixed address of 40 hex digits'),
          // zeros past the sixth decimal change nothing (docs/decisions/0300-decimal-text-to-token-units.md)
          amount: z.string().max(40).regex(/^(?!0+(\.0*)?$)\d{1,12}(\.\d{1,6}0*)?$/, 'a positive decimal with at most 6 significant decimals'),
          idempotencyKey: idempotencyKey.optional(),
        }),
        async run(ctx, { to, amount, idempotencyKey }) {
          ctx.requireCapability('wallet');
          ctx.requireCapability('payments');
          return await wallets.send(ctx.userId, { to, amount, idempotencyKey }, ctx.signal);
        },
      }),
      defineAction({
        name: 'payment_status',
        description: 'Read where a payment made by send stands (pending, submitted, confirmed, failed), by its paymentId or its idempotencyKey.',
        capabilities: ['wallet'],
        input: z
          .strictObject({ action: z.literal('payment_status'), paymentId: z.string().uuid().optional(), idempotencyKey: idempotencyKey.optional() })
          .refine((x) => (x.paymentId === undefined) !== (x.idempotencyKey === undefined), 'give exactly one of paymentId and idempotencyKey'),
        async run(ctx, ref) {
          ctx.requireCapability('wallet');
          return { payment: await wallets.payment(ctx.userId, ref) };
        },
      }),
    ];
  }
}
