/**
 * A worker process holding one container's attach stream, for the hostile-frames test: it listens on
 * loopback and gives each connection (the test, playing the daemon's side) to the docker runtime's
 * own ContainerHost, which relays the program's service calls to RELAY_SERVICE_URL as the instance
 * whose token is RELAY_TOKEN. Prints `{port}` as a JSON line; nothing here catches anything, so an
 * uncaught throw ends the process as it would end a worker.
 */
import { createServer, type AddressInfo } from 'node:net';
import { ContainerHost } from '../../../src/adapters/outbound/agent-runtimes/docker/container-host.js';

const serviceUrl = process.env.RELAY_SERVICE_URL!;
const gatewayToken = process.env.RELAY_TOKEN!;
const server = createServer((socket) => new ContainerHost(socket, (line) => process.stderr.write(`${line}\n`), { serviceUrl, gatewayToken }));
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`));
