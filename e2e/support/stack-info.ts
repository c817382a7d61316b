/** What global setup tells the tests about the running stack (stack.ts), through process.env. */
export const READY_PREFIX = 'WK_E2E_READY ';
export const STACK_ENV = 'WK_E2E_STACK';
export const GOOGLE_CLIENT_ID = 'walletkit-demo.apps.googleusercontent.local';
export const DISCORD_CLIENT_ID = 'walletkit-demo-discord';
export const X_CLIENT_ID = 'walletkit-demo-x';

export interface StackInfo {
  serverUrl: string;
  /** The OTP sink: `GET /messages?to=`. */
  mailboxUrl: string;
  /** Origins serving the demo's production build (see stack.ts). */
  /** strict: the main organization's demo under a strict Content-Security-Policy (no inline script or style). */
  demo: { main: string; short: string; foreign: string; strict: string };
  /** The origin (allowed by the main organization's proxy) serving `dir`, where turnkey-core.spec.ts bundles its page. */
  turnkeyCore: { url: string; dir: string };
  /** The local Hardhat chain the demo transacts on, and its demo ERC-20. */
  chain: { rpcUrl: string; chainId: number; token: string };
  /** The example apps (examples/), installed from the packed tarballs, or why they are not running. */
  examples: { vite: string; nextjs: string } | { missing: string };
}

/** The stack of this run; throws outside `playwright test`. */
export function stackInfo(): StackInfo {
  const raw = process.env[STACK_ENV];
  if (!raw) throw new Error(`${STACK_ENV} is not set: run the suite with \`npx playwright test\` (global setup starts the stack)`);
  return JSON.parse(raw) as StackInfo;
}
