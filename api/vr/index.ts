import type { ModuleMount } from '../http/mount';
import { assistantSocket } from './assistant';
import { internalAiRoutes } from './internalAi';
import { reportRoutes } from './reports';
import { roomRoutes } from './rooms';
import { runtimeRoutes } from './runtime';
import { sessionRoutes } from './sessions';
import { telemetryRoutes } from './telemetry';

/** VR training companion: rooms, headset runtime, sessions, telemetry, reports, the assistant and the AI layer. */
export function vrApi(mount: ModuleMount): void {
  roomRoutes(mount);
  runtimeRoutes(mount);
  sessionRoutes(mount);
  telemetryRoutes(mount);
  reportRoutes(mount);
  assistantSocket(mount);
  internalAiRoutes(mount);
}
