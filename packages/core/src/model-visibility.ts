/**
 * Which registered tools a model may see: the one decision behind every model-facing list — the
 * registry's `list({ modelFacing: true })`, the provider converters, the framework adapters, the
 * tool selector and `discover_tools`. A hidden tool stays registered and callable (an app calls its
 * own helper tools through the host); it is only never offered to a model. Each reason a tool is
 * hidden is one entry of {@link ModelHiddenReason} checked here, so a new reason (a quarantined
 * tool, say) is added in this one place and reaches every list.
 */

import { type ToolApp, toolAppAllows } from './tool-app.js';

/** Why a tool is kept from models: `app-only` — its app metadata names only the app (`visibility: ["app"]`). */
export type ModelHiddenReason = 'app-only';

/** The part of a tool the decision reads (a `RegisteredTool` fits). */
export interface ModelVisibilityInput {
  app?: ToolApp | undefined;
}

/** Why `tool` is hidden from models, or `undefined` when a model may see it. */
export function modelHiddenReason(tool: ModelVisibilityInput): ModelHiddenReason | undefined {
  if (!toolAppAllows(tool.app, 'model')) return 'app-only';
  return undefined;
}

/** Whether a model may see `tool` (no reason hides it). */
export function isModelFacing(tool: ModelVisibilityInput): boolean {
  return modelHiddenReason(tool) === undefined;
}

/** The tools of `tools` a model may see, in their order. */
export function modelFacingTools<T extends ModelVisibilityInput>(tools: Iterable<T>): T[] {
  const facing: T[] = [];
  for (const tool of tools) if (isModelFacing(tool)) facing.push(tool);
  return facing;
}

/** Whether an app may call `tool` (the spec's `visibility` includes `app`, or is absent). */
export function isAppCallable(tool: ModelVisibilityInput): boolean {
  return toolAppAllows(tool.app, 'app');
}
