/**
 * The page's view of the contract: the types of `src/ui/ui-api.ts`, re-exported so that
 * components import them from one place. Types only — nothing of the process is bundled.
 */
export type * from '../../src/ui/ui-api.js';
