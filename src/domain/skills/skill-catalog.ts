import { SKILL_CATEGORIES, SKILL_SLUGS_BY_CATEGORY, type SkillCategory, type SkillSlug } from './skill-catalog-ids.js';

/**
 * The marketplace's listing of each skill (spec "Skill"), as data. What is stored elsewhere is
 * added when the catalog is served: `downloads` (the real number of installs) and `rating` (no
 * ratings are collected, so 0: docs/decisions/0079-skill-catalog.md). Skills are built into this service, so every
 * author is the service itself. `icon` names an icon of the client's icon set (lucide names).
 */
export interface SkillListing {
  readonly id: SkillSlug;
  readonly name: string;
  readonly description: string;
  readonly category: SkillCategory;
  readonly icon: string;
  readonly author: string;
  readonly featured: boolean;
}

export const SKILL_AUTHOR = 'agent-host';

type Entry = Omit<SkillListing, 'id' | 'category' | 'author'>;

/** Name, description, icon and featured flag per slug; the compiler checks every slug has one. */
const ENTRIES: Readonly<Record<SkillSlug, Entry>> = {
  'dj-streaming': { name: 'DJ Streaming', description: 'Start and stop live DJ streams from an agent.', icon: 'radio', featured: true },
  guestlist: { name: 'Guestlist', description: 'Keep guest lists for events: add, check in and list guests.', icon: 'clipboard-list', featured: false },
  'event-ticketing': { name: 'Event Ticketing', description: 'Sell and track tickets for events by tier.', icon: 'ticket', featured: true },
  'event-scheduler': { name: 'Event Scheduler', description: 'Schedule events and announce them on chosen channels.', icon: 'calendar-clock', featured: false },
  'venue-finder': { name: 'Venue Finder', description: 'Search venues by city, type, capacity and price.', icon: 'map-pin', featured: false },
  'festival-finder': { name: 'Festival Finder', description: 'Search festivals by genre, country and price.', icon: 'tent', featured: false },
  'usdc-payments': { name: 'USDC Payments', description: 'Read a wallet balance and send USDC payments.', icon: 'wallet', featured: false },
  'booking-settlement': { name: 'Booking Settlement', description: 'Escrow booking deposits and settle guarantees and backend splits.', icon: 'handshake', featured: true },
  'instant-split': { name: 'Instant Split', description: 'Split incoming revenue between collaborators by rule.', icon: 'split', featured: true },
  treasury: { name: 'Treasury', description: 'Track a project treasury: balances, income and spending.', icon: 'landmark', featured: false },
  'royalty-tracker': { name: 'Royalty Tracker', description: 'Record royalty statements and total them.', icon: 'receipt', featured: false },
  calendar: { name: 'Calendar', description: 'Keep a calendar of dates and reminders.', icon: 'calendar', featured: false },
  'file-manager': { name: 'File Manager', description: 'Store, list and fetch files.', icon: 'folder', featured: false },
  'workspace-suite': { name: 'Workspace Suite', description: 'Work with documents and spreadsheets in an office suite.', icon: 'briefcase', featured: false },
  'notes-workspace': { name: 'Notes Workspace', description: 'Write, search and organise notes.', icon: 'notebook-pen', featured: false },
  email: { name: 'Email', description: 'Send e-mail on the user\'s behalf.', icon: 'mail', featured: false },
  webhook: { name: 'Webhook', description: 'Call the user\'s webhooks with signed payloads.', icon: 'webhook', featured: false },
  browser: { name: 'Browser', description: 'Open web pages and read their text.', icon: 'globe', featured: false },
  'chat-bot-channel': { name: 'Chat Bot Channel', description: 'Talk to people through a chat-app bot.', icon: 'bot', featured: false },
  'community-chat-channel': { name: 'Community Chat Channel', description: 'Post to and answer in community chat servers.', icon: 'messages-square', featured: false },
  'phone-messaging-channel': { name: 'Phone Messaging Channel', description: 'Send and receive phone messages.', icon: 'smartphone', featured: false },
  'phone-messaging-business-channel': { name: 'Phone Messaging Business Channel', description: 'Message customers through a business messaging account.', icon: 'message-circle', featured: false },
  'team-chat-channel': { name: 'Team Chat Channel', description: 'Post to and answer in team chat workspaces.', icon: 'hash', featured: false },
  'track-archaeologist': { name: 'Track Archaeologist', description: 'Dig up tracks by BPM, genre and mood.', icon: 'disc-3', featured: false },
  'setlist-oracle': { name: 'Setlist Oracle', description: 'Build setlists for a genre and a set length.', icon: 'list-music', featured: true },
  'demo-submitter': { name: 'Demo Submitter', description: 'Submit demos and track their status.', icon: 'send', featured: false },
  'visual-synthesizer': { name: 'Visual Synthesizer', description: 'Generate images from a prompt and a style.', icon: 'image', featured: true },
  'groupie-manager': { name: 'Groupie Manager', description: 'Segment fans into superfans, casual and new.', icon: 'users', featured: false },
};

/** Every skill, in the spec's category order. */
export const SKILL_CATALOG: readonly SkillListing[] = Object.freeze(
  SKILL_CATEGORIES.flatMap((category) =>
    (SKILL_SLUGS_BY_CATEGORY[category] as readonly SkillSlug[]).map((id) => Object.freeze({ id, category, author: SKILL_AUTHOR, ...ENTRIES[id] })),
  ),
);

/** The listings of one selection: a category (or all) and, when asked, featured ones only. */
export function selectSkills(filter: { category?: SkillCategory | undefined; featuredOnly?: boolean | undefined }): SkillListing[] {
  return SKILL_CATALOG.filter((s) => (filter.category === undefined || s.category === filter.category) && (!filter.featuredOnly || s.featured));
}
