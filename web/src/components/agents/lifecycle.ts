/** The lifecycle buttons and, for a status, which of them can do something (the others are disabled). */
export type Command = 'start' | 'stop' | 'restart' | 'repair';

export const COMMANDS: [Command, string][] = [
  ['start', 'Start'],
  ['stop', 'Stop'],
  ['restart', 'Restart'],
  ['repair', 'Repair'],
];

const ALLOWED: Record<string, readonly Command[]> = {
  running: ['stop', 'restart', 'repair'],
  stopped: ['start', 'repair'],
  error: ['start', 'stop', 'restart', 'repair'],
  // still being set up: nothing to move yet
  provisioning: [],
};

export const commandAllowed = (status: string, command: Command): boolean => (ALLOWED[status] ?? []).includes(command);
