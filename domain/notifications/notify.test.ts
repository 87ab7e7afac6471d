import type { Config } from '../../lib/config';
import { hubSecret } from './notify';

const config = (values: Partial<Config>) => values as Config;

describe('hubSecret', () => {
  it('is the module secret when the hub is configured', () => {
    expect(hubSecret(config({ HUB_URL: 'https://hub.example', KNOWLEDGE_WEBHOOK_SECRET: 'k' }), 'knowledge')).toBe('k');
    expect(hubSecret(config({ HUB_URL: 'https://hub.example', RH_WEBHOOK_SECRET: 'r' }), 'rh')).toBe('r');
  });

  it('skips notifications without HUB_URL or without the module secret', () => {
    expect(hubSecret(config({ HUB_URL: '', KNOWLEDGE_WEBHOOK_SECRET: 'k' }), 'knowledge')).toBeNull();
    expect(hubSecret(config({ HUB_URL: 'https://hub.example', KNOWLEDGE_WEBHOOK_SECRET: '' }), 'knowledge')).toBeNull();
    expect(hubSecret(config({ HUB_URL: 'https://hub.example' }), 'cloud')).toBeNull();
  });
});
