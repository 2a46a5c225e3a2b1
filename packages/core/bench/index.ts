/**
 * `pnpm --filter @switchboard/core bench [--json] [--quick]`: runs every bench module of this
 * package (each exports `run(options)` returning a BenchReport) and prints a table, or one JSON
 * object `{ package, node, benches: { [name]: BenchReport } }` with `--json`.
 */
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import type { BenchModule, BenchReport } from './bench-report.js';

const json = process.argv.includes('--json');
const quick = process.argv.includes('--quick');

// Modules are optional so that a bench being written elsewhere does not break the others.
const modules = ['./registry-bench.js', './validation-bench.js'];

function format(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (value >= 100) return value.toFixed(0);
  if (value >= 1) return value.toFixed(2);
  return value.toFixed(3);
}

function printReport(report: BenchReport): void {
  console.log(`\n## ${report.name}`);
  const rows = report.cases.map((entry) => [
    entry.name,
    format(entry.medianMicroseconds),
    format(entry.p95Microseconds),
    format(entry.totalMilliseconds),
    String(entry.operations),
  ]);
  const header = ['case', 'median µs/op', 'p95 µs/op', 'total ms/round', 'ops'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  for (const comparison of report.comparisons) {
    console.log(
      `${comparison.name}: ${comparison.subject} is ${format(comparison.ratio)}x faster than ${comparison.baseline}`,
    );
  }
}

const benches: Record<string, BenchReport> = {};
for (const path of modules) {
  if (!existsSync(new URL(path.replace(/\.js$/, '.ts'), import.meta.url))) continue;
  const module = (await import(path)) as BenchModule;
  const report = await module.run({ quick });
  benches[report.name] = report;
  if (!json) printReport(report);
}

if (json) {
  console.log(
    JSON.stringify({
      package: '@switchboard/core',
      node: process.version,
      cpus: cpus().length,
      quick,
      benches,
    }),
  );
}
