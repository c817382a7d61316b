#!/usr/bin/env node
/**
 * Bundle size of the kit (STYLE habit 8: budgets are checked by scripts). Builds two probes
 * with Vite in production mode, react and react-dom external (the app pays for them anyway):
 *   (a) an app using WalletKitProvider + AuthModal   packages/react/size/auth-app.tsx
 *   (b) the full kit, every export of react + client packages/react/size/full-kit.ts
 * and prints minified and gzipped sizes. Budget: the full kit under 60 kB gzipped
 * (DESIGN section 5); exits 1 over budget.
 */
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const BUDGET_GZIP = 60 * 1024;
const external = [/^react($|\/)/, /^react-dom($|\/)/];

const probes = [
  { name: 'app: WalletKitProvider + AuthModal', entry: 'packages/react/size/auth-app.tsx', budget: false },
  { name: 'full kit (@walletkit/react + @walletkit/client)', entry: 'packages/react/size/full-kit.ts', budget: true },
];

async function measure(entry) {
  const out = await build({
    root,
    configFile: false,
    logLevel: 'silent',
    mode: 'production',
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      write: false,
      minify: true,
      target: 'es2022',
      lib: { entry, formats: ['es'], fileName: 'probe' },
      rollupOptions: { external },
    },
  });
  const outputs = (Array.isArray(out) ? out : [out]).flatMap((o) => o.output);
  const code = outputs.filter((c) => c.type === 'chunk').map((c) => c.code).join('\n');
  return { min: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).length };
}

const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
let failed = false;
for (const probe of probes) {
  const { min, gzip } = await measure(probe.entry);
  let verdict = '';
  if (probe.budget) {
    const pass = gzip < BUDGET_GZIP;
    failed ||= !pass;
    verdict = `  ${pass ? 'PASS' : 'FAIL'} (budget ${kb(BUDGET_GZIP)} gzipped)`;
  }
  process.stdout.write(`${probe.name.padEnd(50)} minified ${kb(min).padStart(9)}  gzipped ${kb(gzip).padStart(8)}${verdict}\n`);
}
process.exit(failed ? 1 : 0);
