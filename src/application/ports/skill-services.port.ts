import type { InjectionToken } from 'tsyringe';
import type { UserId } from '../../domain/shared/ids.js';

/**
 * The outside services the skills of that kind need (issue 9). None is integrated yet: each
 * default adapter throws SkillNotConfiguredError (HTTP 501 `NOT_CONFIGURED`), never an invented
 * answer. A vendor adapter replaces one behind its port. Every method may throw
 * UpstreamUnavailableError (HTTP 502) when its vendor fails; `signal` aborts the call.
 */

export interface VenueQuery { city: string; type?: string | undefined; capacity?: number | undefined; maxPrice?: number | undefined }
export interface FestivalQuery { genre?: string | undefined; country?: string | undefined; maxPrice?: number | undefined }
/** Venue and festival search (venue-finder, festival-finder). */
export interface EventSearch {
  searchVenues(q: VenueQuery, signal?: AbortSignal): Promise<Record<string, unknown>[]>;
  searchFestivals(q: FestivalQuery, signal?: AbortSignal): Promise<Record<string, unknown>[]>;
}
export const EVENT_SEARCH: InjectionToken<EventSearch> = Symbol('EventSearch');

/** Mail sent for a user, from an address of theirs (email); not the service's own account mail. */
export interface UserMailSender {
  send(userId: UserId, mail: { to: string; subject: string; text: string }, signal?: AbortSignal): Promise<{ messageId: string }>;
}
export const USER_MAIL_SENDER: InjectionToken<UserMailSender> = Symbol('UserMailSender');

/** A headless browser reached over the network (browser). */
export interface WebBrowser {
  open(url: string, signal?: AbortSignal): Promise<{ url: string; status: number; title: string; text: string }>;
}
export const WEB_BROWSER: InjectionToken<WebBrowser> = Symbol('WebBrowser');

/** The messaging channels a user connects (the five `*-channel` skills). */
export type MessagingChannel = 'chat-bot' | 'community-chat' | 'phone-messaging' | 'phone-messaging-business' | 'team-chat';
export interface MessagingChannels {
  send(userId: UserId, channel: MessagingChannel, message: { to: string; text: string }, signal?: AbortSignal): Promise<{ messageId: string }>;
}
export const MESSAGING_CHANNELS: InjectionToken<MessagingChannels> = Symbol('MessagingChannels');

/** A user's USDC wallet (usdc-payments). Amounts are decimal text, never floats. */
export interface UserWallets {
  balance(userId: UserId, signal?: AbortSignal): Promise<{ address: string; balance: string; network: string }>;
  /** At most one transfer per idempotency key (given, or derived from `to` and `amount`). */
  send(userId: UserId, payment: { to: string; amount: string; idempotencyKey?: string | undefined }, signal?: AbortSignal): Promise<{ transactionHash: string | null; status: string }>;
  /** A payment made by `send`, by its id or its idempotency key; 404 when there is none. */
  payment(userId: UserId, ref: { paymentId?: string | undefined; idempotencyKey?: string | undefined }): Promise<Record<string, unknown>>;
}
export const USER_WALLETS: InjectionToken<UserWallets> = Symbol('UserWallets');

/** A user's office suite: documents and spreadsheets (workspace-suite). */
export interface WorkspaceSuite {
  listDocuments(userId: UserId, signal?: AbortSignal): Promise<Record<string, unknown>[]>;
  createDocument(userId: UserId, doc: { title: string; content: string }, signal?: AbortSignal): Promise<{ documentId: string; url: string }>;
}
export const WORKSPACE_SUITE: InjectionToken<WorkspaceSuite> = Symbol('WorkspaceSuite');

/** A user's file storage (file-manager). Contents travel base64-encoded. */
export interface FileStorage {
  list(userId: UserId, signal?: AbortSignal): Promise<Record<string, unknown>[]>;
  put(userId: UserId, file: { name: string; contentBase64: string }, signal?: AbortSignal): Promise<{ fileId: string }>;
  get(userId: UserId, fileId: string, signal?: AbortSignal): Promise<{ fileId: string; name: string; contentBase64: string }>;
}
export const FILE_STORAGE: InjectionToken<FileStorage> = Symbol('FileStorage');

/** Image generation (visual-synthesizer). */
export interface ImageGenerator {
  generate(request: { prompt: string; style?: string | undefined }, signal?: AbortSignal): Promise<{ imageUrl: string }>;
}
export const IMAGE_GENERATOR: InjectionToken<ImageGenerator> = Symbol('ImageGenerator');

/** A music catalog searched by feel (track-archaeologist). */
export interface MusicCatalog {
  searchTracks(q: { bpm?: number | undefined; genre?: string | undefined; mood?: string | undefined }, signal?: AbortSignal): Promise<Record<string, unknown>[]>;
}
export const MUSIC_CATALOG: InjectionToken<MusicCatalog> = Symbol('MusicCatalog');

/**
 * DJ streams a broadcaster can actually reach (dj-streaming): an ingest the service does not run.
 * The LiveStreams port's local adapter only issues ids that nothing serves, so it is not used here.
 */
export interface DjStreaming {
  start(userId: UserId, stream: { title: string }, signal?: AbortSignal): Promise<{ streamId: string; ingestUrl: string; playbackUrl: string }>;
  stop(userId: UserId, streamId: string, signal?: AbortSignal): Promise<{ streamId: string }>;
}
export const DJ_STREAMING: InjectionToken<DjStreaming> = Symbol('DjStreaming');
