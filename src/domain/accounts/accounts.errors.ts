import { DomainError } from '../shared/domain-error.js';

export class InvalidCredentialsError extends DomainError {
  /** One message for a wrong e-mail and a wrong password alike: nothing tells them apart. */
  constructor() {
    super('INVALID_CREDENTIALS', 'Invalid credentials');
  }
}
export class EmailInUseError extends DomainError {
  constructor() {
    super('EMAIL_IN_USE', 'An account with this e-mail already exists');
  }
}
export class InvalidReferralCodeError extends DomainError {
  constructor() {
    super('INVALID_REFERRAL_CODE', 'Invalid referral code');
  }
}
export class InvalidTokenError extends DomainError {
  constructor() {
    super('INVALID_OR_EXPIRED_TOKEN', 'The link is invalid or has expired');
  }
}
export class WrongPasswordError extends DomainError {
  constructor() {
    super('WRONG_PASSWORD', 'Current password is incorrect');
  }
}
export class BotDetectedError extends DomainError {
  constructor() {
    super('BOT_DETECTED', 'Request blocked by bot detection');
  }
}
export class UserNotFoundError extends DomainError {
  constructor() {
    super('USER_NOT_FOUND', 'User not found');
  }
}
