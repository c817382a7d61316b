/**
 * `npm start`: the walletkit server on the embedded database (./.walletkit/data) with the
 * demo organization and its auth proxy (created on the first start, reused afterwards), and
 * the demo app on Vite's dev server, whose host routes give the app the kit config and, in
 * dev mode, the OTP outbox; a local Hardhat chain with the demo ERC-20 and a faucet, so Send
 * and the wagmi dApp work offline. Prints the URL to open.
 *   PORT (8080) server port · DEMO_PORT (5173) demo port · --data-dir DIR · --no-chain
 */
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { createServer, type Plugin } from 'vite';
import { loadConfig, startDemo, startupWarnings } from '@walletkit/server';
import { startDemoChain, type DemoChain } from '../apps/demo/chain/local';
import { handleDemoRoute, type DemoHostOptions } from '../apps/demo/host';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, 'no-chain': { type: 'boolean', default: false } } });
const demoPort = Number(process.env.DEMO_PORT ?? 5173);
const demoOrigin = `http://localhost:${demoPort}`;

const config = loadConfig(process.env, {
  ...(values['data-dir'] ? { dataDir: values['data-dir'] } : {}),
  webauthn: { rpId: 'localhost', origins: [demoOrigin] },
  // The demo runs without SMTP: its codes go to the dev outbox, shown in the demo's panel.
  devOutbox: true,
  logLevel: (process.env.LOG_LEVEL as never) ?? 'warn',
});
const { server, kitConfig, created } = await startDemo(config, [demoOrigin]);

// A fresh chain each start (Hardhat keeps nothing): wallets live on the server, balances do not.
const chain: DemoChain | undefined = values['no-chain'] ? undefined : await startDemoChain();
const host: DemoHostOptions = {
  config: { kit: { ...kitConfig, ...(chain ? { chains: [chain.info.chain] } : {}) }, ...(chain ? { token: chain.info.token } : {}) },
  ...(config.devOutbox ? { outboxUpstream: `${server.url}/v1/dev/outbox` } : {}),
  ...(chain ? { faucet: chain.faucet } : {}),
};
const hostRoutes: Plugin = {
  name: 'walletkit-demo-host',
  configureServer(vite) {
    vite.middlewares.use((req, res, next) => {
      handleDemoRoute(req, res, host).then((handled) => handled || next(), next);
    });
  },
};
const vite = await createServer({
  configFile: `${root}apps/demo/vite.config.ts`,
  plugins: [hostRoutes],
  server: { port: demoPort, strictPort: true, host: 'localhost' },
  clearScreen: false,
});
await vite.listen();

process.stdout.write(
  `\nwalletkit demo (${created ? 'organization created' : 'organization reused'}, data in ${config.dataDir})\n` +
    `  open the demo   ${demoOrigin}\n` +
    `  auth proxy      ${server.url}/v1\n` +
    `  activity API    ${server.url}/public/v1\n` +
    (config.devOutbox ? `  dev outbox      ${server.url}/v1/dev/outbox\n` : '') +
    (chain ? `  local chain     ${chain.info.chain.rpcUrl} (chain id ${chain.info.chain.id}, demo token ${chain.info.token.address})\n` : '') +
    `  kit config      ${JSON.stringify(kitConfig)}\n`,
);

for (const line of startupWarnings(config)) process.stderr.write(`${line}\n`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await vite.close();
  await chain?.close();
  await server.close();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
