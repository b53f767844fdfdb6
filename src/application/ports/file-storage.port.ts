import type { InjectionToken } from 'tsyringe';
import type { UserId } from '../../domain/shared/ids.js';

// An outside service a skill needs (docs/decisions/0082-outside-service-skills.md). Until a vendor
// adapter replaces it, the default one throws SkillNotConfiguredError (HTTP 501 NOT_CONFIGURED),
// never an invented answer; a vendor failure is UpstreamUnavailableError (502); `signal` aborts.

/** A user's file storage (file-manager). Contents travel base64-encoded. */
export interface FileStorage {
  list(userId: UserId, signal?: AbortSignal): Promise<Record<string, unknown>[]>;
  put(userId: UserId, file: { name: string; contentBase64: string }, signal?: AbortSignal): Promise<{ fileId: string }>;
  get(userId: UserId, fileId: string, signal?: AbortSignal): Promise<{ fileId: string; name: string; contentBase64: string }>;
}

export const FILE_STORAGE: InjectionToken<FileStorage> = Symbol('FileStorage');
