import type { Services } from '../../domain/services';
import type { Routes } from './routes';
import type { SocketRouter } from '../ws';

/** What a module's API gets to mount itself: its own file, so modules import it without importing every module. */
export interface ModuleMount {
  /** A route group under an OpenAPI tag, mounted on the app. */
  routes(tag: string): Routes;
  sockets: SocketRouter;
  services: Services;
}

export type ApiModule = (mount: ModuleMount) => void;
