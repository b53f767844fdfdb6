/**
 * The skills marketplace's categories and slugs, exactly as the spec's Skills section lists them.
 * A skill's id is its slug (CONTRACT.md section 7 "installed skill").
 */
export const SKILL_CATEGORIES = [
  'streaming', 'events', 'payments', 'finance', 'productivity', 'communication',
  'development', 'channels', 'music', 'creative', 'marketing',
] as const;
export type SkillCategory = (typeof SKILL_CATEGORIES)[number];

export const SKILL_SLUGS_BY_CATEGORY = {
  streaming: ['dj-streaming'],
  events: ['guestlist', 'event-ticketing', 'event-scheduler', 'venue-finder', 'festival-finder'],
  payments: ['usdc-payments', 'booking-settlement', 'instant-split'],
  finance: ['treasury', 'royalty-tracker'],
  productivity: ['calendar', 'file-manager', 'workspace-suite', 'notes-workspace'],
  communication: ['email'],
  development: ['webhook', 'browser'],
  channels: ['chat-bot-channel', 'community-chat-channel', 'phone-messaging-channel', 'phone-messaging-business-channel', 'team-chat-channel'],
  music: ['track-archaeologist', 'setlist-oracle', 'demo-submitter'],
  creative: ['visual-synthesizer'],
  marketing: ['groupie-manager'],
} as const satisfies Record<SkillCategory, readonly string[]>;

export type SkillSlug = (typeof SKILL_SLUGS_BY_CATEGORY)[SkillCategory][number];

export const SKILL_SLUGS: readonly SkillSlug[] = Object.values(SKILL_SLUGS_BY_CATEGORY).flat();

export const isSkillSlug = (v: string): v is SkillSlug => (SKILL_SLUGS as readonly string[]).includes(v);
