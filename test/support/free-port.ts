import net from 'node:net';

/** A TCP port on 127.0.0.1 that nothing listened on a moment ago (the OS's pick), for a server a test starts. */
export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
