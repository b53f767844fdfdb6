import { createHash } from 'node:crypto';
import { canonicalJson } from '../../domain/gateway/mpp.js';

/** Hex SHA-256 of the canonical form of the body the plugin will receive (after its schema parsed it). */
export const requestDigest = (input: unknown): string => createHash('sha256').update(canonicalJson(input)).digest('hex');
