/**
 * Public API of `@switchboard/core/node`: the parts of core that need Node's built-ins, kept off
 * the root entry. Any new export added here becomes public API. Use named exports, not wildcards.
 */

export { digestSessionId } from './session-digest.js';
