#!/usr/bin/env node
// `npm start`: the server on the embedded database (./.walletkit/data) with the demo
// organization and its auth proxy, bootstrapped idempotently; prints the URLs and the kit config.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const child = spawn(process.execPath, [join(root, 'packages/server/bin/walletkit-server.js'), 'demo', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
