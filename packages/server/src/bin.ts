// Entry for `node --import tsx packages/server/src/bin.ts ...` (the bin script does the same).
import { main } from './cli.js';

const code = await main(process.argv.slice(2));
if (code >= 0) process.exitCode = code;
