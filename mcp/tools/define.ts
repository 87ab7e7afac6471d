import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { ServiceError, type KnowledgeApi } from '../api';

/**
 * What a tool does to the knowledge base, which gives its MCP annotations:
 *   read         reads only (readOnlyHint)
 *   create       adds something; calling it twice adds two
 *   update       changes something; calling it twice with the same arguments changes nothing more (idempotentHint)
 *   destructive  deletes or archives (destructiveHint)
 */
export type Effect = 'read' | 'create' | 'update' | 'destructive';

export interface ToolDef<I extends z.ZodRawShape, O extends z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  effect: Effect;
  /** Repeating the call with the same arguments has no further effect (defaults: read, update and destructive yes). */
  idempotent?: boolean;
  input: I;
  output: O;
  run(api: KnowledgeApi, args: z.infer<z.ZodObject<I>>): Promise<z.infer<z.ZodObject<O>>>;
  /** First line of the text content: what happened, for a reader. */
  summary(result: z.infer<z.ZodObject<O>>, args: z.infer<z.ZodObject<I>>): string;
}

export interface Tool {
  name: string;
  effect: Effect;
  register(server: McpServer, api: KnowledgeApi): void;
}

export function annotationsOf(title: string, effect: Effect, idempotent?: boolean): ToolAnnotations {
  return {
    title,
    readOnlyHint: effect === 'read',
    destructiveHint: effect === 'destructive',
    idempotentHint: idempotent ?? effect !== 'create',
    // The tools act on one knowledge base, not on an open set of outside resources.
    openWorldHint: false,
  };
}

/** A tool of the server: its definition bound to the SDK, errors of the service turned into tool errors. */
export function defineTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(def: ToolDef<I, O>): Tool {
  return {
    name: def.name,
    effect: def.effect,
    register(server, api) {
      const config = {
        title: def.title,
        description: def.description,
        inputSchema: def.input,
        outputSchema: z.looseObject(def.output),
        annotations: annotationsOf(def.title, def.effect, def.idempotent),
      };
      const handler = async (args: z.infer<z.ZodObject<I>>): Promise<CallToolResult> => {
        try {
          const result = await def.run(api, args);
          return {
            content: [{ type: 'text', text: `${def.summary(result, args)}\n\n${JSON.stringify(result, null, 2)}` }],
            structuredContent: result,
          };
        } catch (err) {
          return toolError(def.name, def.effect, err);
        }
      };
      // The SDK infers the handler's argument type from inputSchema; one cast bridges the generic I. The output is a
      // loose object: a raw shape would become `additionalProperties: false`, and a field the service adds would
      // fail a client's validation of structuredContent.
      server.registerTool(
        def.name,
        config,
        handler as unknown as Parameters<typeof server.registerTool<z.ZodObject<O>, I>>[2],
      );
    },
  };
}

/** A failure as a tool result (isError), never a thrown protocol error: the model reads it and can adapt. */
export function toolError(tool: string, effect: Effect, err: unknown): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: describeError(tool, effect, err) }] };
}

export function describeError(tool: string, effect: Effect, err: unknown): string {
  if (!(err instanceof ServiceError)) return `${tool} failed: ${err instanceof Error ? err.message : String(err)}`;
  if (err.status === 403 && err.code === 'api_key_scope_missing' && effect !== 'read') {
    return (
      `This key has scope read: ${tool} changes the knowledge base and needs a key with the scope write ` +
      `(403 api_key_scope_missing). Create a key with POST /api/knowledge/keys { "label": "MCP", "scope": "write" } ` +
      'and set it as KNOWLEDGE_API_KEY.'
    );
  }
  if (err.status === 401)
    return `The knowledge service refused KNOWLEDGE_API_KEY: ${err.title} (401 ${err.code}): ${err.detail}`;
  const fields = err.errors.map((e) => `\n- ${e.field}: ${e.message}`).join('');
  const status = err.status ? `${err.status} ${err.code}` : err.code;
  return `${tool} failed: ${err.title} (${status}): ${err.detail}${fields}`;
}
