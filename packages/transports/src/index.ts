/** Public API of @switchboard/transports. Any new export added here becomes public API: use named exports, not wildcards. */
export {};
