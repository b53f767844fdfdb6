import type { DependencyContainer } from 'tsyringe';
import {
  notConfiguredBrowser,
  notConfiguredDjStreaming,
  notConfiguredEventSearch,
  notConfiguredFileStorage,
  notConfiguredImages,
  notConfiguredMessaging,
  notConfiguredMusicCatalog,
  notConfiguredUserMail,
  notConfiguredWorkspace,
} from '../adapters/outbound/skills/not-configured-skill-services.js';
import { EVENT_SEARCH } from '../application/ports/event-search.port.js';
import { USER_MAIL_SENDER } from '../application/ports/user-mail-sender.port.js';
import { WEB_BROWSER } from '../application/ports/web-browser.port.js';
import { MESSAGING_CHANNELS } from '../application/ports/messaging-channels.port.js';
import { WORKSPACE_SUITE } from '../application/ports/workspace-suite.port.js';
import { FILE_STORAGE } from '../application/ports/file-storage.port.js';
import { IMAGE_GENERATOR } from '../application/ports/image-generator.port.js';
import { MUSIC_CATALOG } from '../application/ports/music-catalog.port.js';
import { DJ_STREAMING } from '../application/ports/dj-streaming.port.js';
import { OUTSIDE_SERVICE_SKILL_HANDLERS } from '../application/skills/handlers/outside-service-skills.js';
import { STATEFUL_SKILL_HANDLERS } from '../application/skills/handlers/stateful-skills.js';
import { SKILL_HANDLERS } from '../application/ports/skill-handlers.port.js';
import { SkillRegistry } from '../application/skills/skill-registry.js';

/**
 * Skills: the outside services (wallets aside, registerWallets; none integrated: each answers 501 NOT_CONFIGURED,
 * docs/decisions/0082-outside-service-skills.md) and every skill's handler, resolved once. A vendor adapter replaces its port's line.
 */
export function registerSkills(c: DependencyContainer): void {
  c.register(EVENT_SEARCH, { useValue: notConfiguredEventSearch });
  c.register(USER_MAIL_SENDER, { useValue: notConfiguredUserMail });
  c.register(WEB_BROWSER, { useValue: notConfiguredBrowser });
  c.register(MESSAGING_CHANNELS, { useValue: notConfiguredMessaging });
  c.register(WORKSPACE_SUITE, { useValue: notConfiguredWorkspace });
  c.register(FILE_STORAGE, { useValue: notConfiguredFileStorage });
  c.register(IMAGE_GENERATOR, { useValue: notConfiguredImages });
  c.register(MUSIC_CATALOG, { useValue: notConfiguredMusicCatalog });
  c.register(DJ_STREAMING, { useValue: notConfiguredDjStreaming });
  const handlers = [...OUTSIDE_SERVICE_SKILL_HANDLERS, ...STATEFUL_SKILL_HANDLERS].map((token) => c.resolve(token));
  c.register(SKILL_HANDLERS, { useValue: handlers });
  c.registerSingleton(SkillRegistry);
}
