/** Whether a call may become a task: the tool's task options, and the client declaring the extension. */
import type { ServedTool } from '../catalog/tool-catalog.js';
import type { InboundRequest } from '../request/inbound-request.js';
import type { ToolTaskOptions } from '../tools/define-tool.js';
import { tasksExtensionId } from './task-store.js';

/** Whether the request declares the tasks extension (2026-07-28: in its envelope; 2025: at `initialize`). */
export function declaresTasks(request: InboundRequest): boolean {
  const capabilities =
    request.era === 'modern' ? request.envelope?.clientCapabilities : request.session?.clientCapabilities;
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  return extensions?.[tasksExtensionId] !== undefined;
}

/** The task options of a served tool, when it is long-running. */
export function taskOptionsOf(tool: ServedTool): ToolTaskOptions | undefined {
  return tool.local?.task ?? (tool.registered.meta as { task?: ToolTaskOptions } | undefined)?.task;
}
