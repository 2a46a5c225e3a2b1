/** Public API of @switchboard/tool-selection. Any new export added here becomes public API: use named exports, not wildcards. */
export {};
