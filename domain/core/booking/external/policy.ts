import type { Config } from '../../../../lib/config';
import { addressPolicyOf, type AddressPolicy } from '../../../webhooks/addressPolicy';
import type { ClientOptions } from './caldavClient';

/** Where an external calendar may be read from: the webhooks' address policy, with its own exempt hosts. */
export const calendarPolicy = (config: Config): AddressPolicy =>
  addressPolicyOf({ WEBHOOK_ALLOWED_HOSTS: config.CALENDAR_ALLOWED_HOSTS, NODE_ENV: config.NODE_ENV });

/** The client's bounds: CALENDAR_SYNC_TIMEOUT_MS a request, 10 MB an answer. */
export const clientOptions = (config: Config): ClientOptions => ({
  policy: calendarPolicy(config),
  timeoutMs: config.CALENDAR_SYNC_TIMEOUT_MS,
  maxBytes: 10 * 1024 * 1024,
});
