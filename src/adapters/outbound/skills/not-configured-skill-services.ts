import { SkillNotConfiguredError } from '../../../application/skills/skill.errors.js';
import type { EventSearch } from '../../../application/ports/event-search.port.js';
import type { UserMailSender } from '../../../application/ports/user-mail-sender.port.js';
import type { WebBrowser } from '../../../application/ports/web-browser.port.js';
import type { MessagingChannels } from '../../../application/ports/messaging-channels.port.js';
import type { WorkspaceSuite } from '../../../application/ports/workspace-suite.port.js';
import type { FileStorage } from '../../../application/ports/file-storage.port.js';
import type { ImageGenerator } from '../../../application/ports/image-generator.port.js';
import type { MusicCatalog } from '../../../application/ports/music-catalog.port.js';
import type { DjStreaming } from '../../../application/ports/dj-streaming.port.js';

/**
 * The default adapters of the skills' outside services: no vendor is configured, so every call
 * answers 501 NOT_CONFIGURED (docs/decisions/0082-outside-service-skills.md) rather than a made-up result.
 */
const refuse = (what: string) => async (): Promise<never> => {
  throw new SkillNotConfiguredError(what);
};

export const notConfiguredEventSearch: EventSearch = { searchVenues: refuse('Venue search'), searchFestivals: refuse('Festival search') };
export const notConfiguredUserMail: UserMailSender = { send: refuse('Sending e-mail for users') };
export const notConfiguredBrowser: WebBrowser = { open: refuse('The web browser') };
export const notConfiguredMessaging: MessagingChannels = { send: refuse('Messaging channels') };
export const notConfiguredWorkspace: WorkspaceSuite = { listDocuments: refuse('The workspace suite'), createDocument: refuse('The workspace suite') };
export const notConfiguredFileStorage: FileStorage = { list: refuse('File storage'), put: refuse('File storage'), get: refuse('File storage') };
export const notConfiguredImages: ImageGenerator = { generate: refuse('Image generation') };
export const notConfiguredMusicCatalog: MusicCatalog = { searchTracks: refuse('The music catalog') };
export const notConfiguredDjStreaming: DjStreaming = { start: refuse('DJ streaming'), stop: refuse('DJ streaming') };
