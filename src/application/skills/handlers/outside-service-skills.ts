import type { InjectionToken } from 'tsyringe';
import type { SkillHandler } from '../skill-handler.js';
import { BrowserSkill } from './browser/browser.skill.js';
import { ChatBotChannelSkill } from './chat-bot-channel.skill.js';
import { CommunityChatChannelSkill } from './community-chat-channel.skill.js';
import { DjStreamingSkill } from './dj-streaming/dj-streaming.skill.js';
import { EmailSkill } from './email/email.skill.js';
import { FestivalFinderSkill } from './festival-finder/festival-finder.skill.js';
import { FileManagerSkill } from './file-manager/file-manager.skill.js';
import { PhoneMessagingBusinessChannelSkill } from './phone-messaging-business-channel.skill.js';
import { PhoneMessagingChannelSkill } from './phone-messaging-channel.skill.js';
import { TeamChatChannelSkill } from './team-chat-channel.skill.js';
import { TrackArchaeologistSkill } from './track-archaeologist/track-archaeologist.skill.js';
import { UsdcPaymentsSkill } from './usdc-payments/usdc-payments.skill.js';
import { VenueFinderSkill } from './venue-finder/venue-finder.skill.js';
import { VisualSynthesizerSkill } from './visual-synthesizer/visual-synthesizer.skill.js';
import { WorkspaceSuiteSkill } from './workspace-suite/workspace-suite.skill.js';

/** The skills whose work is done by an outside service (src/application/ports/skill-services.port.ts). */
export const OUTSIDE_SERVICE_SKILL_HANDLERS: readonly InjectionToken<SkillHandler>[] = [
  DjStreamingSkill,
  VenueFinderSkill,
  FestivalFinderSkill,
  UsdcPaymentsSkill,
  FileManagerSkill,
  WorkspaceSuiteSkill,
  EmailSkill,
  BrowserSkill,
  ChatBotChannelSkill,
  CommunityChatChannelSkill,
  PhoneMessagingChannelSkill,
  PhoneMessagingBusinessChannelSkill,
  TeamChatChannelSkill,
  TrackArchaeologistSkill,
  VisualSynthesizerSkill,
];
