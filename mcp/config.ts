/**
 * Configuration of the knowledge MCP server, read from the environment once at start.
 *
 * KNOWLEDGE_API_KEY   required: an integration key of the knowledge service (X-Server-API-Key), created by a
 *                     member with POST /api/knowledge/keys { label, scope }. Scope `read` allows the read tools;
 *                     the write tools need a key with the scope `write`.
 * KNOWLEDGE_API_URL   base address of the knowledge service (without /api/...); default PRODUCTION_KNOWLEDGE_URL.
 * MCP_PORT / --port   serve Streamable HTTP on this port (path /mcp) instead of stdio.
 * MCP_HOST / --host   interface of the HTTP mode; default 127.0.0.1 (the key is the server's: keep it local).
 * MCP_ALLOWED_HOSTS   HTTP mode off loopback: comma-separated Host names accepted (DNS rebinding protection).
 */
export const PRODUCTION_KNOWLEDGE_URL = 'https://knowledge.platform-suite.example';

export interface McpConfig {
  apiKey: string;
  apiUrl: string;
  /** Streamable HTTP port; null for stdio. */
  port: number | null;
  host: string;
  allowedHosts: string[];
  /** Bound of one request to the service. */
  timeoutMs: number;
}

export class ConfigError extends Error {}

function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  if (i >= 0) return argv[i + 1];
  return argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

export function readConfig(env: NodeJS.ProcessEnv, argv: string[] = []): McpConfig {
  const apiKey = env.KNOWLEDGE_API_KEY?.trim();
  if (!apiKey) {
    throw new ConfigError(
      'KNOWLEDGE_API_KEY is not set: the knowledge MCP server needs an integration key of the knowledge service ' +
        '(create one with POST /api/knowledge/keys { "label": "MCP", "scope": "read" | "write" } and put it in KNOWLEDGE_API_KEY).',
    );
  }
  const apiUrl = (env.KNOWLEDGE_API_URL?.trim() || PRODUCTION_KNOWLEDGE_URL).replace(/\/+$/, '');
  try {
    const parsed = new URL(apiUrl);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new ConfigError(`KNOWLEDGE_API_URL is not an http(s) address: ${apiUrl}`);
  }
  const portText = option(argv, 'port') ?? env.MCP_PORT;
  let port: number | null = null;
  if (portText !== undefined && portText !== '') {
    port = Number(portText);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new ConfigError(`MCP_PORT / --port is not a port number: ${portText}`);
  }
  const timeoutMs = Number(env.KNOWLEDGE_API_TIMEOUT_MS || 15000);
  return {
    apiKey,
    apiUrl,
    port,
    host: option(argv, 'host') ?? env.MCP_HOST ?? '127.0.0.1',
    allowedHosts: (env.MCP_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    timeoutMs: timeoutMs > 0 ? timeoutMs : 15000,
  };
}
