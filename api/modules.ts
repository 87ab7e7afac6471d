import type { Services } from '../domain/services';
import { billingApi } from './billing';
import { cloudApi } from './cloud';
import { coreApi } from './core';
import { hrApi } from './hr';
import { identityApi } from './identity';
import type { Routes } from './http/routes';
import { knowledgeApi } from './knowledge';
import type { SocketRouter } from './ws';
import { vrApi } from './vr';
import { workApi } from './work';

export interface ModuleMount {
  /** A route group under an OpenAPI tag, mounted on the app. */
  routes(tag: string): Routes;
  sockets: SocketRouter;
  services: Services;
}

export type ApiModule = (mount: ModuleMount) => void;

/** Every module's routes, in mounting order. */
export const apiModules: ApiModule[] = [
  identityApi,
  billingApi,
  vrApi,
  knowledgeApi,
  coreApi,
  cloudApi,
  hrApi,
  workApi,
];
