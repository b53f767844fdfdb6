import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dockerEngineForRun } from './private-docker-daemon.js';

/**
 * The run's Docker Engine, handed out from the main test process: a loopback HTTP endpoint the
 * docker test files ask (`GET /`), so the daemon is started once, only in a run that has docker
 * tests, and stopped by the global teardown whichever file asked first.
 */
export async function serveDockerEngine(log: (m: string) => void): Promise<{ url: string; stop: () => Promise<void> }> {
  const engine = dockerEngineForRun(log);
  const server = createServer((_req, res) => {
    void engine.info().then((info) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(info));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await engine.stop();
    },
  };
}
