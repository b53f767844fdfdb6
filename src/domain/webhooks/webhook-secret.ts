/** A Standard Webhooks secret as a user gives it: `whsec_` and its key in base64. */
export const STANDARD_WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]{22,}={0,2}$/;
