import type { UserId } from '../shared/ids.js';

/** A user as the rest of the service sees it. The password hash never leaves persistence. */
export interface User {
  id: UserId;
  email: string;
  name: string;
  emailVerified: boolean;
  credits: number;
  referralCode: string;
  notifications: Readonly<Record<string, boolean>>;
  twoFactorEnabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}
