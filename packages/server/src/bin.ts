#!/usr/bin/env node
// The `walletkit-server` command (package.json "bin" -> dist/bin.js): plain Node, no loader.
// In the monorepo: `npm run server -- start ...` runs this file from source through tsx.
import { main } from './cli.js';

try {
  const code = await main(process.argv.slice(2));
  if (code >= 0) process.exitCode = code;
} catch (err) {
  process.stderr.write(`walletkit-server: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
