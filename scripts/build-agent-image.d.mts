/** Types of build-agent-image.mjs for the tests and the bench that import it. */
export const IMAGE_REPOSITORY: string;
export const IMAGE_LABEL: string;
export function buildAgentImage(options?: { env?: NodeJS.ProcessEnv; log?: (m: string) => void }): Promise<string>;
