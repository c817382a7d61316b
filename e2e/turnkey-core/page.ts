/**
 * The page of e2e/turnkey-core.spec.ts: Turnkey's browser client `@turnkey/core`, unchanged, bundled
 * by the spec with esbuild and served on an origin the main organization's proxy allows
 * (stack.ts, host `core`). It reads the walletkit server, config id and organization from the
 * host's /walletkit.config.json and exposes one function per step on `window.turnkeyCore`; the
 * spec drives them with page.evaluate. The only code here that is not core's is the documented
 * OTP override: core's verifyOtp checks the code's encryption target against Turnkey's production
 * signer, so the code is encrypted to walletkit's enclave key (`/.well-known/walletkit.json`) with
 * @turnkey/crypto and sent through core's own HTTP client (README, "Using Turnkey's @turnkey/core").
 */
import { getAuthProxyConfig, OtpType, TurnkeyClient, type Wallet } from '@turnkey/core';
import { encryptOtpCodeToBundle } from '@turnkey/crypto';

interface HostConfig {
  kit: { apiUrl: string; proxyUrl: string; configId: string; organizationId: string; enclavePublicKey: string };
}

const ETHEREUM_ACCOUNT = {
  curve: 'CURVE_SECP256K1',
  pathFormat: 'PATH_FORMAT_BIP32',
  path: "m/44'/60'/0'/0/0",
  addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
} as const;

async function start() {
  const { kit } = (await (await fetch('/walletkit.config.json')).json()) as HostConfig;
  const client = new TurnkeyClient({ apiBaseUrl: kit.apiUrl, authProxyUrl: kit.proxyUrl, authProxyConfigId: kit.configId, organizationId: kit.organizationId });
  await client.init();
  const discovery = (await (await fetch(`${kit.apiUrl}/.well-known/walletkit.json`)).json()) as { enclaveSigningPublicKey: string };

  const firstEthereumAccount = (wallets: Wallet[]) => wallets.flatMap((w) => w.accounts).find((a) => a.addressFormat === 'ADDRESS_FORMAT_ETHEREUM');

  return {
    /** What the SDK itself is configured with, and the key discovery announces (the test compares it to the pinned one). */
    kit,
    enclaveSigningPublicKey: discovery.enclaveSigningPublicKey,

    /** core's helper: POST /v1/wallet_kit_config (no body). */
    config: () => getAuthProxyConfig(kit.configId, kit.proxyUrl),

    /** core: POST /v1/otp_init_v2. */
    initOtp: (email: string) => client.initOtp({ otpType: OtpType.Email, contact: email }),

    /**
     * The documented override of core's verifyOtp: a key pair from core's own stamper (IndexedDB),
     * the code encrypted to walletkit's enclave key, core's proxyVerifyOtpV2; then core's account lookup.
     */
    async verifyOtp(input: { otpId: string; otpEncryptionTargetBundle: string; code: string; email: string }) {
      const publicKey = await client.createApiKeyPair();
      const encryptedOtpBundle = await encryptOtpCodeToBundle(input.code, input.otpEncryptionTargetBundle, publicKey, discovery.enclaveSigningPublicKey);
      const { verificationToken } = await client.httpClient.proxyVerifyOtpV2({ otpId: input.otpId, encryptedOtpBundle });
      const account = await client.httpClient.proxyGetAccount({ filterType: 'EMAIL', filterValue: input.email, verificationToken });
      return { verificationToken, publicKey, organizationId: account.organizationId ?? null };
    },

    /** core: signup_v2, then its own loginWithOtp (X-Stamp-Attested stamp_login) with the same token. */
    signUp: (verificationToken: string, email: string) => client.signUpWithOtp({ verificationToken, contact: email, otpType: OtpType.Email }),

    /** core: loginWithOtp (X-Stamp-Attested stamp_login). */
    logIn: (verificationToken: string, organizationId: string) => client.loginWithOtp({ verificationToken, organizationId }),

    /** The session core stored (IndexedDB / localStorage). */
    async session() {
      const session = await client.getSession();
      return session ? { organizationId: session.organizationId, userId: session.userId, publicKey: session.publicKey ?? null } : null;
    },

    /** core: list_wallets and list_wallet_accounts with the session key. */
    async wallets() {
      const wallets = await client.fetchWallets();
      return wallets.map((w) => ({ walletId: w.walletId, walletName: w.walletName, addresses: w.accounts.map((a) => a.address) }));
    },

    /** core: create_wallet with one Ethereum account. */
    createWallet: (walletName: string) => client.createWallet({ walletName, accounts: [ETHEREUM_ACCOUNT] }),

    /** core: sign_raw_payload of the EIP-191 message by the first Ethereum account; the 65-byte signature and its address. */
    async signMessage(message: string) {
      const account = firstEthereumAccount(await client.fetchWallets());
      if (!account) throw new Error('no Ethereum account');
      const { r, s, v } = await client.signMessage({ message, walletAccount: account, addEthereumPrefix: true });
      return { address: account.address, signature: `0x${r}${s}${v}` };
    },
  };
}

declare global {
  interface Window {
    turnkeyCore: Promise<Awaited<ReturnType<typeof start>>>;
  }
}

window.turnkeyCore = start();
