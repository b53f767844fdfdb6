import type { InjectionToken } from 'tsyringe';

/**
 * GET /api/auth/providers (CONTRACT.md section 7 "sign-in methods"): which ways of signing in this
 * deployment has configured, read once from configuration, so a client offers only buttons that
 * work. `emailDelivery` says where account mail goes (docs/decisions/0282): `log` when the local
 * service prints the links to its log instead of sending them, `none` when it sends nothing.
 */
export interface SignInMethods {
  readonly password: true;
  /** CODEHOST_CLIENT_ID and CODEHOST_CLIENT_SECRET set. */
  readonly codehost: boolean;
  /** IDP_CLIENT_ID and IDP_CLIENT_SECRET set. */
  readonly idp: boolean;
  /** Sign-in with Ethereum: always (an ordinary wallet's signature is checked without a node; smart wallets need BASE_RPC_URL). */
  readonly wallet: boolean;
  /** SOCIAL_JWKS_URL, SOCIAL_ISSUER and SOCIAL_AUDIENCE set. */
  readonly social: boolean;
  readonly emailDelivery: 'smtp' | 'log' | 'none';
}
export const SIGN_IN_METHODS: InjectionToken<SignInMethods> = Symbol('SignInMethods');
