import type { InjectionToken } from 'tsyringe';
import type { UserId } from '../../domain/shared/ids.js';

// An outside service a skill needs (docs/decisions/0082-outside-service-skills.md). Until a vendor
// adapter replaces it, the default one throws SkillNotConfiguredError (HTTP 501 NOT_CONFIGURED),
// never an invented answer; a vendor failure is UpstreamUnavailableError (502); `signal` aborts.

/** A user's office suite: documents and spreadsheets (workspace-suite). */
export interface WorkspaceSuite {
  listDocuments(userId: UserId, signal?: AbortSignal): Promise<Record<string, unknown>[]>;
  createDocument(userId: UserId, doc: { title: string; content: string }, signal?: AbortSignal): Promise<{ documentId: string; url: string }>;
}

export const WORKSPACE_SUITE: InjectionToken<WorkspaceSuite> = Symbol('WorkspaceSuite');
