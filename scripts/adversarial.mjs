#!/usr/bin/env node
// `npm run adversarial`: run the adversarial suite (packages/server/test/adversarial, also part
// of `npm test`) and print its figures per category: bad inputs tried, accepted, 5xx,
// duplicate effects, crash rounds and violations. Exits non-zero when a test failed or any
// figure that must be 0 is not.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const reports = mkdtempSync(join(tmpdir(), 'walletkit-adversarial-'));
const run = spawnSync('npx', ['vitest', 'run', 'packages/server/test/adversarial', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ADVERSARIAL_REPORT_DIR: reports },
});

const keys = ['tried', 'accepted', 'serverErrors', 'duplicateEffects', 'crashRounds', 'violations'];
const totals = new Map();
for (const file of readdirSync(reports).filter((f) => f.endsWith('.json'))) {
  for (const [category, figures] of Object.entries(JSON.parse(readFileSync(join(reports, file), 'utf8')))) {
    const sum = totals.get(category) ?? Object.fromEntries(keys.map((k) => [k, 0]));
    for (const k of keys) sum[k] += figures[k] ?? 0;
    totals.set(category, sum);
  }
}
rmSync(reports, { recursive: true, force: true });

const header = ['category', 'bad inputs', 'accepted', '5xx', 'duplicate effects', 'crash rounds', 'violations'];
const rows = [...totals.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([c, f]) => [c, ...keys.map((k) => String(f[k]))]);
const all = Object.fromEntries(keys.map((k) => [k, rows.reduce((n, r) => n + Number(r[1 + keys.indexOf(k)]), 0)]));
rows.push(['total', ...keys.map((k) => String(all[k]))]);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
process.stdout.write(`\nadversarial figures\n${line(header)}\n${rows.map(line).join('\n')}\n`);
process.stdout.write(
  `\n${all.tried} bad inputs tried, ${all.accepted} accepted, ${all.serverErrors} 5xx, ${all.duplicateEffects} duplicate effects, ${all.crashRounds} crash rounds, ${all.violations} violations\n`,
);
const clean = all.accepted === 0 && all.serverErrors === 0 && all.duplicateEffects === 0 && all.violations === 0;
process.exit(run.status === 0 && clean && rows.length > 1 ? 0 : 1);
