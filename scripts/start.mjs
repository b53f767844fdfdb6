// `npm start`: build if the sources changed, then run the service in this same process. The npm
// script execs node (no shell stays in between), so a supervisor's SIGTERM to npm reaches the
// service, which stops its HTTP server, jobs and embedded PostgreSQL before it exits.
import { build, isBuildCurrent } from './build.mjs';

const checking = performance.now();
try {
  if (!isBuildCurrent()) {
    // a first start (or one after a change) compiles for a minute or two before anything is logged
    process.stderr.write('Building the service and its web console (first start, or the sources changed)…\n');
    await build();
    process.stderr.write('Build done; starting.\n');
  }
  // read by the service's start-up phases (src/bootstrap/startup-phases.ts)
  performance.mark('agent-host:build-checked', { detail: { ms: performance.now() - checking } });
} catch (err) {
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}
// the bundle of the compiled service (build.mjs's bundleService): a few files to load instead of thousands
await import('../dist/service/main.js');
