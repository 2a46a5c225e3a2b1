/** Exit codes of the `switchboard` command: 0 ok, 1 failure, 2 usage error. */
export const ExitCode = { ok: 0, failure: 1, usage: 2 } as const;
