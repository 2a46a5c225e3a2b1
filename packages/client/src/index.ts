/** Public API of @switchboard/client. Any new export added here becomes public API: use named exports, not wildcards. */
export {};
