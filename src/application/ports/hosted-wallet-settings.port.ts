import type { InjectionToken } from 'tsyringe';

/** Whether a hosted-wallet provider is configured (HOSTED_WALLET_API_KEY and HOSTED_WALLET_PROJECT_ID both set). */
export interface HostedWalletSettings {
  readonly configured: boolean;
  readonly projectId: string | null;
}
export const HOSTED_WALLET_SETTINGS: InjectionToken<HostedWalletSettings> = Symbol('HostedWalletSettings');
