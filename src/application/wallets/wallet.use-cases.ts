import { inject, injectable } from 'tsyringe';
import { SeedExportForbiddenError, type Wallet } from '../../domain/wallets/wallet.js';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import { WALLET_BALANCES, WALLET_CUSTODY, type WalletBalances, type WalletCustody } from '../ports/wallet-custody.port.js';
import { DomainError } from '../../domain/shared/domain-error.js';

/** A wallet with its balances, or why they could not be read (never a made-up zero). */
export interface WalletView {
  wallet: Wallet | null;
  network: string;
  token: WalletBalances['token'];
  balance: { native: string; token: string } | { error: string };
}

/** The caller's wallet and its balances as read now on the configured chain. */
@injectable()
export class GetWallet {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<'wallets'>,
    @inject(WALLET_BALANCES) private readonly balances: WalletBalances,
  ) {}

  async execute(actor: Pick<Actor, 'userId'>, signal?: AbortSignal): Promise<WalletView> {
    const wallet = await this.uow.asUser(actor.userId, (s) => s.wallets.get());
    const base = { wallet, network: this.balances.network, token: this.balances.token };
    if (!wallet) return { ...base, balance: { error: 'no wallet' } };
    try {
      return { ...base, balance: await this.balances.read(wallet.address as `0x${string}`, signal) };
    } catch (err) {
      // the record is still worth showing; the answer says the balance is unknown and why
      if (err instanceof DomainError) return { ...base, balance: { error: err.message } };
      throw err;
    }
  }
}

/** The caller's wallet record only (no chain read): GET /api/wallet/address, `get_seed`. */
@injectable()
export class FindWallet {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<'wallets'>) {}

  async execute(actor: Pick<Actor, 'userId'>): Promise<Wallet | null> {
    return this.uow.asUser(actor.userId, (s) => s.wallets.get());
  }

  /** `get_seed`: the wallet's metadata; 404 without one. The key itself never leaves custody. */
  async seedMetadata(actor: Pick<Actor, 'userId'>): Promise<Wallet> {
    const wallet = await this.execute(actor);
    if (!wallet) throw new NotFoundError('Wallet');
    return wallet;
  }

  /** `export_seed`: refused always, wallet or not (spec: 403 always). */
  exportSeed(): never {
    throw new SeedExportForbiddenError();
  }
}

/**
 * Creates the caller's one wallet through the custody port (POST /api/wallet `create`,
 * /api/wallet/create, /api/wallet/hosted): a generated key, or `privateKey` imported (validated
 * at the edge). A second create answers 400 `WALLET_EXISTS`, the first untouched.
 */
@injectable()
export class CreateWallet {
  constructor(@inject(WALLET_CUSTODY) private readonly custody: WalletCustody) {}

  async execute(actor: Pick<Actor, 'userId'>, opts: { privateKey?: `0x${string}` | undefined; label?: string | undefined } = {}): Promise<Wallet> {
    return this.custody.create(actor.userId, opts);
  }
}
