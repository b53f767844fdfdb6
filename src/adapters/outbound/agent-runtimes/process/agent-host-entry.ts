import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Where the agent-host program is and how to run it: in src/agent-host (its own folder: a separate
 * program, also built into the docker image), `.ts` when this module
 * runs from the sources (tsx, vitest: the child then loads tsx too, by absolute path so the
 * child's working directory does not matter) and `.js` in the compiled build (plain node). Found
 * upward from this file: the sources and tsc's output (src/…, dist/src/…) hold `agent-host` in
 * their `src`, and the service's bundle (dist/service/…) finds tsc's output next to it, in dist/src.
 */
export function agentHostEntry(): { file: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  const fromSources = here.endsWith('.ts');
  const file = findProgram(dirname(here), `agent-host-program.${fromSources ? 'ts' : 'js'}`);
  if (!fromSources) return { file, execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { file, execArgv: ['--import', tsx] };
}

const found = new Map<string, string>();

function findProgram(from: string, name: string): string {
  const known = found.get(name);
  if (known) return known;
  for (let dir = from; ; dir = dirname(dir)) {
    const file = [join(dir, 'agent-host', name), join(dir, 'src', 'agent-host', name)].find((f) => existsSync(f));
    if (file) {
      found.set(name, file);
      return file;
    }
    if (dirname(dir) === dir) throw new Error(`the agent host program (${name}) is not in src/agent-host above ${from}`);
  }
}
