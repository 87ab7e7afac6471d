import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Services } from '../../domain/services';
import type { Routes } from './routes';
import type { SocketRouter } from '../ws';

/** What a module's API gets to mount itself: its own file, so modules import it without importing every module. */
export interface ModuleMount {
  /** A route group under an OpenAPI tag, mounted on the app. */
  routes(tag: string): Routes;
  sockets: SocketRouter;
  services: Services;
  /**
   * Mounts a protocol endpoint outside the route table (WebDAV): its own methods and bodies, answered by the
   * handler for every request under `prefix`. Not in /openapi.json: the module documents it in docs/.
   */
  handle(prefix: string, handler: RequestHandler): void;
  /**
   * Answers the errors of requests under `prefix` (its routes' included) before the shared problem+json handler:
   * for a protocol with its own error format (SCIM). Errors it passes on reach the shared handler.
   */
  handleErrors(prefix: string, handler: ErrorRequestHandler): void;
}

export type ApiModule = (mount: ModuleMount) => void;
