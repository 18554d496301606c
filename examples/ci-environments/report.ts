/**
 * The summary table printed when every environment has finished: one row per environment, in
 * the order they were given, columns as wide as their widest cell.
 */
import type { Outcome } from "./environment";

const COLUMNS: Array<[string, (o: Outcome) => string]> = [
  ["ENVIRONMENT", (o) => o.environment],
  ["STACK", (o) => o.stack],
  ["WORKSPACE", (o) => o.workspace],
  ["RESULT", (o) => o.result],
  ["COST", (o) => o.monthlyCost ?? "-"],
  ["TIME", (o) => `${o.seconds}s`],
  ["DETAIL", (o) => o.detail],
];

export function summaryTable(outcomes: Outcome[]): string {
  const rows = [COLUMNS.map(([title]) => title), ...outcomes.map((o) => COLUMNS.map(([, cell]) => cell(o)))];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  // The last column is not padded: a long drift or failure message is not followed by blanks.
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join("  ")).join("\n");
}
