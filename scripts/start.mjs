// `npm start`: build if the sources changed, then run the service in this same process. The npm
// script execs node (no shell stays in between), so a supervisor's SIGTERM to npm reaches the
// service, which stops its HTTP server, jobs and embedded PostgreSQL before it exits.
import { buildIfNeeded } from './build.mjs';

const checking = performance.now();
try {
  await buildIfNeeded();
  // read by the service's start-up phases (src/bootstrap/startup-phases.ts)
  performance.mark('agent-host:build-checked', { detail: { ms: performance.now() - checking } });
} catch (err) {
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}
await import('../dist/src/bootstrap/main.js');
