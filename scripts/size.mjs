#!/usr/bin/env node
/**
 * Bundle size of the kit (STYLE habit 8: budgets are checked by scripts). Measures the built
 * packages as a consumer's bundler sees them: `npm run size` builds them first (scripts/build.mjs)
 * and the probes resolve `@walletkit/*` through the published exports (dist/, no source
 * condition; checked below). Builds two probes with Vite in production mode, the peer dependencies external (react, react-dom,
 * @tanstack/react-query: the app renders them, so it pays for them anyway):
 *   (a) an app using WalletKitProvider + AuthModal   packages/react/size/auth-app.tsx
 *   (b) the full kit, every export of react + client packages/react/size/full-kit.ts
 * and prints, minified and gzipped, what a page loads at start (the entry chunk and what it
 * imports statically) and everything a user of one language can load later (every lazy chunk:
 * the confirmation dialog's decoders, the wallet's screens, HPKE, passkeys, App Proofs, Ethereum
 * hashing; the five catalogs of the other languages left out, since a page loads at most one),
 * and apart, the phone number library (libphonenumber-js' metadata, loaded only when the phone
 * form opens). Budgets (DESIGN section 5, decision 0016 "Bundle size (issue 15)"): the full kit's
 * start under 60 kB gzipped, all of it in one language under 160 kB; exits 1 over either.
 */
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const BUDGET_START_GZIP = 60 * 1024;
const BUDGET_TOTAL_GZIP = 160 * 1024;
/** The catalogs of every language but English (each a chunk of its own; a page loads one). */
const OTHER_LOCALE = /\/i18n\/(de|es|fr|ja|ar)\//;
const PHONE = /\/libphonenumber-js\//;
const external = [/^react($|\/)/, /^react-dom($|\/)/, /^@tanstack\/(react-query|query-core)($|\/)/];

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
  const chunks = (Array.isArray(out) ? out : [out]).flatMap((o) => o.output).filter((c) => c.type === 'chunk');
  // The kit must come from dist/ (what npm ships), never from src/.
  const kitModules = chunks.flatMap((c) => Object.keys(c.modules)).filter((id) => id.includes('/packages/'));
  const fromSource = kitModules.filter((id) => /\/packages\/[^/]+\/src\//.test(id));
  if (fromSource.length > 0 || kitModules.length === 0)
    throw new Error(`the probe did not measure the built packages: ${fromSource.slice(0, 3).join(', ') || 'no kit module'}`);
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  // What loads at start: the entry and its static imports, transitively.
  const start = new Set();
  const visit = (chunk) => {
    if (!chunk || start.has(chunk)) return;
    start.add(chunk);
    for (const name of chunk.imports) visit(byName.get(name));
  };
  visit(chunks.find((c) => c.isEntry));
  const size = (list) => {
    const code = list.map((c) => c.code).join('\n');
    return { min: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).length };
  };
  const modules = (c) => Object.keys(c.modules).filter((id) => c.modules[id].renderedLength > 0);
  const only = (c, pattern) => modules(c).length > 0 && modules(c).every((id) => pattern.test(id));
  const locales = chunks.filter((c) => only(c, OTHER_LOCALE));
  // One language's share of the catalogs: the largest of the five, for an honest upper bound.
  const largestLocale = locales.map((c) => ({ c, n: size([c]).gzip })).sort((a, b) => b.n - a.n)[0]?.c;
  const phone = chunks.filter((c) => modules(c).some((id) => PHONE.test(id)));
  const oneLanguage = chunks.filter((c) => !locales.includes(c) || c === largestLocale);
  return { start: size([...start]), total: size(oneLanguage), phone: size(phone) };
}

const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
let failed = false;
for (const probe of probes) {
  const { start, total, phone } = await measure(probe.entry);
  for (const [label, { min, gzip }, budget] of [
    ['at start', start, BUDGET_START_GZIP],
    ['in all, one language', total, BUDGET_TOTAL_GZIP],
    ['of which the phone form (libphonenumber-js)', phone, undefined],
  ]) {
    let verdict = '';
    if (probe.budget && budget !== undefined) {
      const pass = gzip < budget;
      failed ||= !pass;
      verdict = `  ${pass ? 'PASS' : 'FAIL'} (budget ${kb(budget)} gzipped)`;
    }
    process.stdout.write(`${`${probe.name}, ${label}`.padEnd(60)} minified ${kb(min).padStart(9)}  gzipped ${kb(gzip).padStart(8)}${verdict}\n`);
  }
}
process.exit(failed ? 1 : 0);
