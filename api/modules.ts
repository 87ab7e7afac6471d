import type { ApiModule } from './http/mount';
import { billingApi } from './billing';
import { cloudApi } from './cloud';
import { coreApi } from './core';
import { hrApi } from './hr';
import { identityApi } from './identity';
import { knowledgeApi } from './knowledge';
import { vrApi } from './vr';
import { webhooksApi } from './webhooks';
import { workApi } from './work';

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
  webhooksApi,
];
