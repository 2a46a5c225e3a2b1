/** Public API of @switchboard/server. Any new export added here becomes public API: use named exports, not wildcards. */
export {};
