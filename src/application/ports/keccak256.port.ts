import type { InjectionToken } from 'tsyringe';

/** Ethereum's keccak-256 (not NIST's SHA3-256: node:crypto has only the latter). */
export interface Keccak256 {
  /** The hash of the UTF-8 bytes of `text`, lower-case 0x hex. Pure: no I/O. */
  ofText(text: string): `0x${string}`;
}
export const KECCAK256: InjectionToken<Keccak256> = Symbol('Keccak256');
