/** Types of build.mjs for the tests that import it. */
export function sourceFingerprint(root?: string): string;
export function isBuildCurrent(root?: string): boolean;
export function build(root?: string): Promise<void>;
export function buildIfNeeded(root?: string): Promise<boolean>;
export function bundleService(root?: string): Promise<void>;
export const SERVICE_EXTERNALS: string[];
