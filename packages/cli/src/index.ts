/** Public API of @switchboard/cli. Any new export added here becomes public API: use named exports, not wildcards. */
export {};
