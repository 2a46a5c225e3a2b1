/**
 * The trust part of `switchboard doctor`: every listed tool through the trust rules, and with
 * `--trust` through the pins of the registry store too (a first use pins them), as a CI gate that
 * fails on a quarantined tool or a blocking finding.
 */
import type { ServerConfig } from '@switchboard/client';
import {
  createToolTrust,
  type McpToolDefinition,
  type RegistryStore,
  severityAtLeast,
  type ToolTrustVerdict,
} from '@switchboard/core';
import type { CommandContext } from '../cli-command.js';
import { createPalette } from '../cli-io.js';
import { registryStoreOf, storePathOf } from '../registry-store-of.js';

/** What the trust check found. */
export interface TrustReport {
  /** Whether `--trust` was asked for (pins read and written, a gate). */
  gate: boolean;
  /** Where the pins live (with `--trust`). */
  store?: string;
  verdicts: ToolTrustVerdict[];
  /** With `--trust`: a tool is quarantined or a finding is blocking. */
  failed: boolean;
  json: Record<string, unknown>;
}

/** Reviews the listed tools of the servers that connected. */
export async function checkTrust(
  context: CommandContext,
  reports: ReadonlyArray<{ server: string; ok: boolean; listed?: McpToolDefinition[] }>,
  entries: Record<string, ServerConfig>,
  gate: boolean,
): Promise<TrustReport> {
  let store: RegistryStore | undefined;
  if (gate && context.io.env.SWITCHBOARD_STORE !== 'off') store = (await registryStoreOf(context)).store;
  try {
    const trust = createToolTrust({
      ...(store?.trustStore === undefined ? {} : { store: store.trustStore }),
      serverPolicy: (server) => entries[server]?.trust,
    });
    for (const report of reports)
      if (report.ok && report.listed) await trust.review(report.server, report.listed);
    await trust.settled();
    trust.close();
    const verdicts = trust.verdicts();
    const blocking = (verdict: ToolTrustVerdict) => {
      const threshold = trust.policyOf(verdict.server).quarantineAt;
      return (
        threshold !== 'never' &&
        verdict.findings.some((finding) => severityAtLeast(finding.severity, threshold))
      );
    };
    const failed = gate && verdicts.some((verdict) => verdict.state !== 'trusted' || blocking(verdict));
    return {
      gate,
      ...(store === undefined ? {} : { store: storePathOf(context) }),
      verdicts,
      failed,
      json: {
        gate,
        failed,
        quarantined: verdicts.filter((verdict) => verdict.state !== 'trusted'),
        findings: verdicts.flatMap((verdict) =>
          verdict.findings.filter((finding) => finding.severity !== 'info'),
        ),
      },
    };
  } finally {
    await store?.close();
  }
}

/** Prints the trust section of the report. */
export function printTrust(context: CommandContext, report: TrustReport): void {
  const palette = createPalette(context.io.stdout, context.io.env);
  const out = (line = '') => context.io.stdout.write(`${line}\n`);
  out();
  out(palette.bold(`Tool trust${report.gate ? ` (pins in ${report.store ?? 'memory'})` : ''}:`));
  const quarantined = report.verdicts.filter((verdict) => verdict.state !== 'trusted');
  const findings = report.verdicts.flatMap((verdict) =>
    verdict.findings.filter((finding) => finding.severity !== 'info'),
  );
  if (quarantined.length === 0 && findings.length === 0) {
    out(
      `  ${palette.green('✔')} ${report.verdicts.length} tools, no findings${report.gate ? ', nothing quarantined' : ''}`,
    );
    return;
  }
  for (const verdict of quarantined) {
    out(
      `  ${palette.red('✖')} ${verdict.server}/${verdict.tool} ${verdict.state} (${verdict.change ?? 'pending'}${verdict.parts?.length ? `: ${verdict.parts.join(', ')}` : ''}${verdict.previousName ? `, was "${verdict.previousName}"` : ''})`,
    );
  }
  for (const finding of findings) {
    const color =
      finding.severity === 'high' || finding.severity === 'critical' ? palette.red : palette.yellow;
    out(
      `  ${color(finding.severity.padEnd(8))} ${finding.server}/${finding.tool} ${finding.code} in ${finding.field}: ${finding.excerpt}`,
    );
  }
  if (quarantined.length > 0)
    out("  Review with 'switchboard tools diff', then 'switchboard tools approve <server> [tool]'.");
}
