import { api } from '../../api/client.js';
import { useLoad } from '../use-async.js';

/** GET /api/auth/providers: the sign-in methods this deployment has configured, and where account mail goes. */
export interface SignInMethods {
  password: true;
  codehost: boolean;
  idp: boolean;
  wallet: boolean;
  social: boolean;
  emailDelivery: 'smtp' | 'log' | 'none';
}

export const useSignInMethods = () => useLoad(() => api.get<SignInMethods>('/api/auth/providers'));

/** Links to the OAuth sign-ins that are configured: a full page load (`target="_top"` keeps the console's router from taking the click). */
export function OAuthButtons({ methods }: { methods: SignInMethods | undefined }) {
  if (!methods || (!methods.codehost && !methods.idp)) return null;
  return (
    <div class="actions oauth-buttons" role="group" aria-label="Other ways to sign in">
      {methods.codehost ? (
        <a class="button secondary" href="/api/auth/codehost" target="_top">
          Sign in with your code host account
        </a>
      ) : null}
      {methods.idp ? (
        <a class="button secondary" href="/api/auth/idp" target="_top">
          Sign in with your identity provider
        </a>
      ) : null}
    </div>
  );
}
