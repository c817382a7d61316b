#!/usr/bin/env node
// Runs the TypeScript sources through tsx: no build step between `npm install` and use.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
try {
  const code = await main(process.argv.slice(2));
  if (code >= 0) process.exitCode = code;
} catch (err) {
  process.stderr.write(`walletkit-server: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
