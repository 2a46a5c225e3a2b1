/**
 * The page's view of the contract: the types of `src/ui-api.ts`, re-exported so that
 * components import them from one place. Types only — nothing of the process is bundled.
 */

export type { JsonSchema } from '@switchboard/core';
export type * from '../ui-api.js';
