import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { Services } from '../domain/services';
import { runProcess } from '../bin/process';
import { createApp } from './app';

export interface WebServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Listens with the app and its WebSocket endpoints. close() stops accepting, ends sockets, drains requests. */
export async function startWeb(services: Services, port = services.config.PORT): Promise<WebServer> {
  const { app, sockets } = createApp(services);
  const server = createServer(app);
  // Longer than a load balancer's idle timeout, so it (not us) closes idle keep-alive connections.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  sockets.attach(server);
  server.listen(port);
  await once(server, 'listening');
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
  return {
    server,
    url,
    async close() {
      sockets.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
    },
  };
}

if (require.main === module) {
  void (async () => {
    await runProcess('web', async (services) => {
      const web = await startWeb(services);
      services.logger.info(`web listening on ${services.config.PUBLIC_URL} (port ${services.config.PORT})`);
      return () => web.close();
    });
  })();
}
