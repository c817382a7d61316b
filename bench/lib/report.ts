/**
 * The bench's one table: figure | DB | value | ceiling/target | ratio | ok/MISS, printed as
 * text and written to bench/results/latest.json (rows, settings and every raw measurement) and
 * bench/results/latest.md (the table in Markdown).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `*`: the two measurements compared ran different server source (it changed during the run). */
export type Status = 'ok' | 'MISS' | 'ok*' | 'MISS*' | 'ERROR';

export interface Row {
  figure: string;
  db: string;
  value: string;
  target: string;
  /** The figure over its ceiling or target, as the target is phrased (null: none). */
  ratio: number | null;
  status: Status;
}

const HEADERS = ['figure', 'DB', 'value', 'ceiling/target', 'ratio', 'ok/MISS'];

const cells = (r: Row) => [r.figure, r.db, r.value, r.target, r.ratio === null ? '' : r.ratio.toFixed(2), r.status];

export function renderText(rows: Row[]): string {
  const table = [HEADERS, ...rows.map(cells)];
  const widths = HEADERS.map((_, c) => Math.max(...table.map((r) => r[c]!.length)));
  const line = (r: string[]) =>
    r
      .map((cell, c) => (c === 4 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
      .join(' | ')
      .trimEnd();
  return [line(table[0]!), widths.map((w) => '-'.repeat(w)).join('-|-'), ...table.slice(1).map(line)].join('\n');
}

export function renderMarkdown(rows: Row[]): string {
  const esc = (s: string) => s.replaceAll('|', '\\|');
  return [
    `| ${HEADERS.join(' | ')} |`,
    `|${HEADERS.map((_, c) => (c === 4 ? '---:' : '---')).join('|')}|`,
    ...rows.map((r) => `| ${cells(r).map(esc).join(' | ')} |`),
  ].join('\n');
}

export const RESULTS_DIR = join(import.meta.dirname, '..', 'results');

/** Write latest.json and latest.md; returns their paths. */
export function writeResults(rows: Row[], settings: Record<string, unknown>, raw: unknown, log: string[]): string[] {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const json = join(RESULTS_DIR, 'latest.json');
  const md = join(RESULTS_DIR, 'latest.md');
  writeFileSync(json, `${JSON.stringify({ settings, rows, raw }, null, 2)}\n`);
  const settingsLines = Object.entries(settings).map(([k, v]) => `- ${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
  writeFileSync(md, `# walletkit benchmark\n\n${settingsLines.join('\n')}\n\n${renderMarkdown(rows)}\n\n## Log\n\n\`\`\`\n${log.join('\n')}\n\`\`\`\n`);
  return [json, md];
}

/** `n` formatted with a thousands separator and `digits` decimals. */
export const num = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : String(n);

export const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
