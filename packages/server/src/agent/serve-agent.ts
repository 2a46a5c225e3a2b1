/**
 * `serveAgent`: an agent exposed as one MCP tool taking `{message}`; each call is a fresh
 * conversation, cancelling the call aborts the run, a failure is an `isError` result. Some of the
 * agent's own tools may be exposed next to it.
 */
import type { ApprovalMode, ApprovalPolicy, Logger, RegisteredTool } from '@switchboard/core';
import { createApprovalPolicy, createToolRegistry } from '@switchboard/core';
import { republishTool } from '../catalog/republish-tool.js';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import { createMcpServer, type McpServer } from '../server/mcp-server.js';
import type { ApprovalPrompt } from '../tools/approval-prompt.js';
import { type DefinedTool, defineTool, type ToolContext } from '../tools/define-tool.js';

/** Runs the agent on one message; resolves with its answer. */
export type AgentFunction = (message: string, options: { signal: AbortSignal }) => Promise<string>;

/** Options of {@link serveAgent}. */
export interface ServeAgentOptions {
  agent: AgentFunction;
  /** Server name, and the tool's name after sanitizing (`research-agent` → tool `research-agent`). */
  name: string;
  /** What the agent does: the tool's description, which is how a calling model decides to use it. */
  description: string;
  /** Server version. @default '1.0.0' */
  version?: string;
  /** Name of the agent tool. @default `name`, sanitized */
  toolName?: string;
  /** Tools exposed directly besides the agent (defined here, or registered tools from a client). */
  tools?: Array<DefinedTool | RegisteredTool>;
  /** Approval policy for the directly exposed tools. @default 'annotations' */
  approval?: ApprovalPolicy | ApprovalMode;
  /** Where a person is asked about tools the policy says `ask` (as `createMcpServer`'s option). @default 'hide' */
  approvalPrompt?: ApprovalPrompt;
  /**
   * Expose tools the policy says need a person's approval.
   * @deprecated use `approvalPrompt`: `true` is `'host'`, `false` is `'hide'`.
   */
  allowApprovalTools?: boolean;
  logger?: Logger;
  debug?: boolean;
}

const agentGroup = 'agent';

function isDefinedTool(tool: DefinedTool | RegisteredTool): tool is DefinedTool {
  return (tool as DefinedTool).kind === 'switchboard.tool';
}

/** Creates an MCP server whose main tool runs `agent`. */
export function serveAgent(options: ServeAgentOptions): McpServer {
  if (typeof options?.agent !== 'function') {
    throw new ServerError({
      code: ServerErrorCode.ConfigInvalid,
      message: 'serveAgent: pass agent: (message, { signal }) => Promise<string>.',
    });
  }
  const toolName = options.toolName ?? options.name.replace(/[^a-zA-Z0-9_.-]/g, '_').slice(0, 128);
  const agentTool = defineTool<{ message: string }>({
    name: toolName,
    description: options.description,
    input: {
      type: 'object',
      properties: { message: { type: 'string', description: 'The task or question for the agent.' } },
      required: ['message'],
      additionalProperties: false,
    },
    annotations: { title: options.name, readOnlyHint: false, openWorldHint: true },
    execute: async ({ message }, { signal }) => {
      try {
        const answer = await options.agent(message, { signal });
        return typeof answer === 'string' ? answer : JSON.stringify(answer);
      } catch (error) {
        if (signal.aborted) throw error;
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`Agent "${options.name}" failed: ${reason}`, { cause: error });
      }
    },
  });

  const inner =
    options.approval === undefined || typeof options.approval !== 'object'
      ? createApprovalPolicy({ mode: (options.approval as ApprovalMode | undefined) ?? 'annotations' })
      : options.approval;
  // The agent tool is what this server is for: the policy judges only the tools exposed beside it.
  const approval: ApprovalPolicy = {
    specificationVersion: 'v1',
    decide: (request) =>
      request.server === agentGroup
        ? { decision: 'allow', reason: 'the served agent' }
        : inner.decide(request),
  };

  const registry = createToolRegistry(options.logger ? { logger: options.logger } : {});
  registry.register({
    server: agentGroup,
    name: agentTool.name,
    publicName: agentTool.name,
    description: agentTool.description,
    inputSchema: agentTool.inputSchema,
    ...(agentTool.annotations ? { annotations: agentTool.annotations } : {}),
    execute: async (args, executeOptions) => {
      const signal = executeOptions?.signal ?? new AbortController().signal;
      // Called through the registry by something other than this server: a context without a client.
      const noClient = () =>
        Promise.reject(new Error(`Agent "${options.name}" was called without an MCP client to ask.`));
      const context = (executeOptions?.toolContext as ToolContext | undefined) ?? {
        signal,
        requestId: 0,
        era: 'legacy',
        clientCapabilities: {},
        progress: async () => {},
        log: async () => {},
        sample: noClient,
        elicit: noClient,
        listRoots: noClient,
        closeResponseStream: () => {},
        continueAsTask: async () => {},
      };
      return agentTool.execute(args, context);
    },
  });
  const server = createMcpServer({
    name: options.name,
    version: options.version ?? '1.0.0',
    registry,
    approval,
    ...(options.approvalPrompt !== undefined ? { approvalPrompt: options.approvalPrompt } : {}),
    allowApprovalTools: options.allowApprovalTools ?? false,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.debug !== undefined ? { debug: options.debug } : {}),
  });
  for (const tool of options.tools ?? []) {
    if (isDefinedTool(tool)) {
      server.addTool(tool);
    } else {
      registry.register(republishTool(tool));
    }
  }
  return server;
}
