/**
 * How much disk an install may take (its whole `node_modules`, as `du` counts it, in MiB). The
 * three figures the issue sets are the budgets of the three packages users install on their own;
 * the others are set the same way: what the package needs today, plus room to grow by about a
 * fifth, so that a heavy dependency added by accident fails here instead of in a user's install.
 *
 * - `@switchboard/core` 15: ajv, ajv-formats and zod (zod 4 is most of it); no protocol code.
 * - `@switchboard/transports` 30: core, the MCP SDK v2 client and core, ws, jose.
 * - `@switchboard/client` 35 (issue 26): transports, yaml, smol-toml, diff — 29 MB when the issue
 *   was filed; the framework adapters' peers are optional and not installed.
 * - `@switchboard/server` 45: client, plus the SDK v2 server.
 * - `@switchboard/tool-selection` 60 (issue 26): core and the shipped offline model (15 MB), with
 *   no ONNX runtime, image library or compiled index in the default install.
 * - `@switchboard/cli` 120 (issue 26): everything above, the gateway and inspector, and the
 *   optional SQLite store (better-sqlite3, compiled at install when no prebuilt binary is reachable).
 * - From the package split (measured on the merged tree): `@switchboard/gateway` 45 (36.7 MiB:
 *   client, server, the SDK), `@switchboard/inspector` 55 (44.5 MiB: the gateway's and the page's
 *   bundle), `@switchboard/host-config` 35 (29.5 MiB: the client, diff).
 *
 * A package not listed (a new one) gets {@link defaultBudgetMiB}, the cli's: every package is a
 * part of what the cli installs, so none should weigh more; give it its own row when it lands.
 */
export const installBudgetsMiB: Readonly<Record<string, number>> = {
  '@switchboard/core': 15,
  '@switchboard/transports': 30,
  '@switchboard/client': 35,
  '@switchboard/server': 45,
  '@switchboard/tool-selection': 60,
  '@switchboard/cli': 120,
  '@switchboard/gateway': 45,
  '@switchboard/inspector': 55,
  '@switchboard/host-config': 35,
};

/** The budget of a package without a row of its own. */
export const defaultBudgetMiB = 120;

/** The budget of `name`, in MiB. */
export function installBudgetMiB(name: string): number {
  return installBudgetsMiB[name] ?? defaultBudgetMiB;
}

/** Bytes as MiB with one decimal (`du -sh` rounds the same way). */
export function mebibytes(bytes: number): number {
  return Math.round((bytes / 2 ** 20) * 10) / 10;
}
