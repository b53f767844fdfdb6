import { ApiError, NetworkError } from './client.js';

/** What a person is told about a failed call, and where they can go next. */
export interface Explained {
  text: string;
  action?: { href: string; label: string };
}

const num = (v: unknown) => (typeof v === 'number' ? v : undefined);

/**
 * Every error the API can answer, as a sentence a person understands. Codes first (they are
 * precise), then the status. 402 leads to pricing, 429 shows the limit, 409 says the agent is stopped.
 */
export function explain(err: unknown): Explained {
  if (err instanceof NetworkError) return { text: 'The service cannot be reached. Check your connection and try again.' };
  if (!(err instanceof ApiError)) return { text: 'Something unexpected went wrong in this page. Reload it and try again.' };
  const { status, code, body, message } = err;
  switch (code) {
    case 'VALIDATION_ERROR':
      return { text: `Please check what you entered: ${message}` };
    case 'INVALID_CREDENTIALS':
      return { text: 'That e-mail and password do not match an account.' };
    case 'WRONG_PASSWORD':
      return { text: 'Your current password is not right.' };
    case 'EMAIL_IN_USE':
      return { text: 'An account with this e-mail already exists. Sign in instead, or reset your password.', action: { href: '/signin', label: 'Sign in' } };
    case 'INVALID_REFERRAL_CODE':
      return { text: 'That referral code does not exist. Check it, or leave it empty.' };
    case 'INVALID_OR_EXPIRED_TOKEN':
      return { text: 'This link is no longer valid: it was used already or it expired. Ask for a new one.' };
    case 'AUTH_REQUIRED':
    case 'TOKEN_INVALID':
      return { text: 'You are not signed in, or your session ended. Please sign in.', action: { href: '/signin', label: 'Sign in' } };
    case 'PAYMENT_REQUIRED':
    case 'PLAN_REQUIRED':
    case 'SUBSCRIPTION_REQUIRED':
      return { text: 'This needs a paid plan.', action: { href: '/pricing', label: 'See plans' } };
    case 'MODEL_RESTRICTED':
      return { text: 'Your plan does not include this model. Choose another one or upgrade.', action: { href: '/pricing', label: 'See plans' } };
    case 'CSRF_TOKEN_MISSING':
      return { text: 'Your session changed in another tab. Reload the page and try again.' };
    case 'AGENT_NOT_RUNNING':
      return { text: 'The agent is stopped. Start it, then try again.' };
    case 'AGENT_INVALID_TRANSITION':
      return { text: 'The agent cannot do that in its current state. Wait a moment and try again.' };
    case 'MCP_SERVER_NAME_TAKEN':
      return { text: `${message}. Choose another name.` };
    case 'AGENT_LIMIT_REACHED':
    case 'SKILL_LIMIT_REACHED':
    case 'MCP_SERVER_LIMIT_REACHED':
    case 'SCHEDULE_LIMIT_REACHED': {
      const what = code === 'AGENT_LIMIT_REACHED' ? 'agents' : code === 'SKILL_LIMIT_REACHED' ? 'skills' : code === 'MCP_SERVER_LIMIT_REACHED' ? 'MCP servers' : 'schedules for this agent';
      const current = num(body.current);
      const limit = num(body.limit);
      const counts = current !== undefined && limit !== undefined ? ` (${current} of ${limit} ${what})` : '';
      return { text: `You have reached your plan's limit${counts}. Remove one or upgrade your plan.`, action: { href: '/pricing', label: 'See plans' } };
    }
    case 'USAGE_EXHAUSTED':
      return { text: "You have used all of today's units. Buy a credit pack or wait until tomorrow.", action: { href: '/pricing', label: 'Buy credits' } };
    case 'RATE_LIMITED':
      return { text: 'Too many requests in a short time. Wait a moment and try again.' };
    case 'PROVIDER_NOT_CONFIGURED':
      // retrying cannot help: whoever runs the service must configure a provider
      return { text: 'No AI model provider is configured on this server, so agents cannot answer yet. Whoever runs it sets one up as the README\'s "Talk to your agent" step says.' };
    case 'PROVIDER_ERROR':
    case 'UPSTREAM_UNAVAILABLE':
    case 'PROVIDER_UNAVAILABLE':
      return { text: 'A service we depend on did not answer. Nothing was lost: try again in a moment.' };
    case 'NOT_CONFIGURED':
    case 'PAYMENTS_NOT_CONFIGURED':
    case 'PRICE_NOT_CONFIGURED':
    case 'OAUTH_NOT_CONFIGURED':
    case 'CHAIN_NOT_CONFIGURED':
    case 'HOSTED_WALLET_NOT_CONFIGURED':
      return { text: 'This feature is not set up on this server yet. Ask the operator to configure it.' };
    case 'PAYLOAD_TOO_LARGE':
      return { text: 'That is too large to send. Make it smaller and try again.' };
  }
  if (status === 400) return { text: `Please check what you entered: ${message}` };
  if (status === 401) return { text: 'You are not signed in, or your session ended. Please sign in.', action: { href: '/signin', label: 'Sign in' } };
  if (status === 402) return { text: 'This needs a paid plan.', action: { href: '/pricing', label: 'See plans' } };
  if (status === 403) return { text: 'You are not allowed to do that.' };
  if (status === 404) return { text: 'That does not exist, or it is not yours.' };
  if (status === 409) return { text: message };
  if (status === 410) return { text: 'This feature was retired.' };
  if (status === 429) return { text: 'Too many requests in a short time. Wait a moment and try again.' };
  if (status >= 502 && status <= 504) return { text: 'A service we depend on did not answer. Nothing was lost: try again in a moment.' };
  return { text: 'Something went wrong on our side. Try again; if it keeps happening, tell us.' };
}
