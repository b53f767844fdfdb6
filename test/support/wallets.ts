import { systemClock } from '../../src/application/ports/clock.port.js';
import { randomBytes } from 'node:crypto';
import { AesGcmSecretBox } from '../../src/adapters/outbound/crypto/aes-gcm-secret-box.js';
import { LocalWalletCustody } from '../../src/adapters/outbound/wallets/local-wallet-custody.js';
import { ViemWalletBalances } from '../../src/adapters/outbound/wallets/viem-wallet-balances.js';
import { walletChain } from '../../src/adapters/outbound/wallets/wallet-chain.js';
import type { UserWork } from '../../src/application/ports/unit-of-work.port.js';
import type { WalletsUserScope } from '../../src/application/ports/scopes/wallets-scope.port.js';
import { SkillWallets } from '../../src/application/wallets/skill-wallets.js';
import { SendPayouts } from '../../src/application/wallets/send-payouts.use-case.js';

/**
 * The real wallet adapters for skills built by hand in tests: local custody on `rpcUrl` (none:
 * no chain, so skills keep their database-only behaviour) with `token`.
 */
export function walletPorts(uow: UserWork<WalletsUserScope, 'wallets' | 'payouts' | 'jobs'>, chain: { rpcUrl?: string; token?: `0x${string}` } = {}) {
  const c = walletChain({ network: 'base', rpcUrl: chain.rpcUrl, timeoutMs: 10_000, token: { address: chain.token, decimals: 6, symbol: 'USDC' } });
  const custody = new LocalWalletCustody(uow, new AesGcmSecretBox(randomBytes(32)), c);
  const balances = new ViemWalletBalances(c);
  const sendPayouts = new SendPayouts(uow, custody);
  return { custody, signer: custody, balances, sendPayouts, userWallets: new SkillWallets(uow, balances, custody, sendPayouts, systemClock) } as const;
}
