import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Where the agent-host program is and how to run it: in src/agent-host (its own folder: a separate
 * program, also built into the docker image), `.ts` when this module
 * runs from the sources (tsx, vitest: the child then loads tsx too, by absolute path so the
 * child's working directory does not matter) and `.js` in the compiled build (plain node).
 */
export function agentHostEntry(): { file: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  const fromSources = here.endsWith('.ts');
  const file = join(dirname(here), '..', '..', '..', '..', 'agent-host', `agent-host-program.${fromSources ? 'ts' : 'js'}`);
  if (!fromSources) return { file, execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { file, execArgv: ['--import', tsx] };
}
