/**
 * The demo's chain (npm start and the e2e stack): a local Hardhat chain, the demo ERC-20
 * compiled with solc-js (offline, from DemoToken.sol) and deployed by a funded dev account,
 * the chain config the kit and wagmi take, and a faucet that sends a fresh account test ETH
 * from a dev account (a real transaction, mined at once).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createPublicClient, createWalletClient, defineChain, http, nonceManager, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { DEV_ACCOUNTS, startLocalChain, type LocalChain } from '../../../packages/server/test/support/chain';
import type { DemoChainInfo } from '../src/config';

const require = createRequire(import.meta.url);

/** The chain as viem names it. */
function viemChain(chain: LocalChain) {
  return defineChain({
    id: chain.chainId,
    name: 'Local chain',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
  });
}

/** DemoToken.sol compiled by solc-js: its creation bytecode. */
function compileDemoToken(): Hex {
  const solc = require('solc') as { compile(input: string): string };
  const source = readFileSync(join(import.meta.dirname, 'DemoToken.sol'), 'utf8');
  const input = {
    language: 'Solidity',
    sources: { 'DemoToken.sol': { content: source } },
    settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['evm.bytecode.object'] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: Array<{ severity: string; formattedMessage: string }>;
    contracts: Record<string, Record<string, { evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  return `0x${output.contracts['DemoToken.sol']!.DemoToken!.evm.bytecode.object}`;
}

/** The running demo chain: its config for the kit and wagmi, the token, a faucet, and close(). */
export interface DemoChain {
  info: DemoChainInfo;
  /** Send `wei` from a dev account to `to`; resolves with the mined transaction's hash. */
  faucet(to: Hex, wei: bigint): Promise<Hex>;
  close(): Promise<void>;
}

/**
 * Start the local chain and deploy the demo token.
 * @example const chain = await startDemoChain(); kitConfig.chains = [chain.info.chain];
 */
export async function startDemoChain(): Promise<DemoChain> {
  const chain = await startLocalChain();
  try {
    const viem = viemChain(chain);
    const publicClient = createPublicClient({ chain: viem, transport: http(chain.rpcUrl) });
    // The nonce manager keeps concurrent faucet sends (two browsers at once) from reusing a nonce.
    const dev = createWalletClient({ chain: viem, transport: http(chain.rpcUrl), account: privateKeyToAccount(DEV_ACCOUNTS[0].privateKey, { nonceManager }) });
    const deploy = await dev.deployContract({ abi: [], bytecode: compileDemoToken() });
    const receipt = await publicClient.waitForTransactionReceipt({ hash: deploy });
    if (!receipt.contractAddress) throw new Error('the demo token was not deployed');
    return {
      info: {
        chain: { id: chain.chainId, name: 'Local chain', rpcUrl: chain.rpcUrl, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 } },
        token: { address: receipt.contractAddress, symbol: 'DEMO', decimals: 18 },
      },
      async faucet(to, wei) {
        const hash = await dev.sendTransaction({ to, value: wei });
        await publicClient.waitForTransactionReceipt({ hash });
        return hash;
      },
      close: () => chain.close(),
    };
  } catch (err) {
    await chain.close();
    throw err;
  }
}
