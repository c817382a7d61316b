import type { ChainConfig, SignOptions, UserProfile, WalletActions } from '@walletkit/client';
import type { OAuthProviderId, ParamsOf, ProxyResponseOf } from '@walletkit/protocol';

/**
 * The part of `@walletkit/client`'s `WalletKitClient` that the React kit calls, written down
 * structurally so the components depend on behaviour, not on a class: the provider passes the
 * real client, tests may pass any object with the same shape (injection, no module mocking).
 */
export interface WalletKitClientLike {
  proxy: { walletKitConfig(): Promise<WalletKitConfig> };
  session: {
    getState(): SessionState;
    subscribe(listener: () => void): () => void;
    /**
     * Why the session changes (a login, a refresh, its announced end, ...), after `getState`
     * already shows the new state. Without it the provider infers logins and expiries from the
     * state alone and cannot say `beforeSessionExpiry`.
     */
    onChange?(listener: (change: SessionChange) => void): () => void;
    restore(): Promise<unknown>;
    logout(): Promise<unknown>;
    refresh(): Promise<unknown>;
  };
  auth: {
    startEmailOtp(contact: string): Promise<{ otpId: string }>;
    startSmsOtp(phone: string): Promise<{ otpId: string }>;
    completeOtp(input: { otpId: string; code: string }): Promise<unknown>;
    signUpWithPasskey(opts?: { userName?: string | undefined }): Promise<unknown>;
    logInWithPasskey(): Promise<unknown>;
    logInWithOAuth(provider: OAuthProviderName): Promise<unknown>;
    /** Log in with an EIP-1193 wallet; when absent the modal hides the wallet method. */
    connectWallet?(provider: Eip1193Provider): Promise<unknown>;
    /** Finish a social login on the page the provider redirected back to (popup was blocked). */
    completeOAuthRedirect?(): Promise<unknown>;
  };
  wallet: {
    listWallets(): Promise<WalletSummary[]>;
    listAccounts(walletId: string): Promise<WalletAccountSummary[]>;
    createWallet(name: string): Promise<unknown>;
    createAccounts(walletId: string, accounts: WalletAccountParams[]): Promise<unknown>;
    /** EIP-191; asks the kit's confirmation first unless `opts.confirm` is false. */
    signMessage(address: string, message: string, opts?: SignOptions): Promise<string>;
    /** EIP-712; asks the kit's confirmation first unless `opts.confirm` is false. */
    signTypedData(address: string, typedData: unknown, opts?: SignOptions): Promise<string>;
    /** Fill, confirm and sign a transaction: the `0x` signed serialization. */
    signTransaction(params: TransactionParams): Promise<string>;
    /** Fill, confirm, sign and broadcast a transaction: its hash. */
    sendTransaction(params: TransactionParams): Promise<string>;
    /** The account's balance in wei on `chainId` (default: the selected chain). */
    getBalance(params: { address: string; chainId?: number | undefined }): Promise<bigint>;
    exportWallet(walletId: string): Promise<string>;
    /** One account's private key (hex), decrypted in this browser. */
    exportAccount(address: string): Promise<string>;
    /** Import a recovery phrase as a new wallet (encrypted in this browser to the enclave). */
    importWallet(input: { walletName: string; mnemonic: string }): Promise<unknown>;
    /**
     * Show a recovery phrase (`walletId`) or private key (`address`) in a secret frame placed in
     * `container` (another origin): resolves once it is shown; the secret never reaches the app.
     */
    exportInFrame(container: HTMLElement, target: { walletId: string } | { address: string } | { privateKeyId: string }): Promise<void>;
    /** The user's private keys (imported keys), with their addresses. */
    listPrivateKeys(): Promise<PrivateKeySummary[]>;
    /** Take a recovery phrase or private key typed in a secret frame in `container`, encrypted there; resolves with the import's addresses. */
    importInFrame(container: HTMLElement, input: { secret: 'mnemonic' | 'privateKey'; name: string }): Promise<{ addresses: string[] }>;
    addPasskey(name: string): Promise<unknown>;
  };
  /**
   * The signed-in user's account (`@walletkit/client`'s `account`): the profile, linking and
   * unlinking sign-in methods, passkeys and sessions. Optional: without it the Security screen
   * and the account hooks have nothing to show.
   */
  account?: AccountActionsLike;
  /** The chains the kit transacts on and the selected one; `getState()` is a stable snapshot between changes. */
  chains: {
    getState(): ChainsState;
    subscribe(listener: () => void): () => void;
  };
  /** The EIP-1193 provider over this client (the same object on every call). */
  ethereumProvider(): Eip1193Provider;
}

/** A transaction to sign or send: `{ address, transaction: { to, value, data, ... }, chainId?, confirm? }` (`@walletkit/client`'s). */
export type TransactionParams = Parameters<WalletActions['sendTransaction']>[0];

/** The kit's chains and the one selected (the balance's and, by default, Send's network). */
export interface ChainsState {
  chains: readonly ChainConfig[];
  selectedId: number | undefined;
}

/** `wallet_kit_config` as the proxy returns it. */
export type WalletKitConfig = ProxyResponseOf<'wallet_kit_config'>;

/** The social providers the modal offers. */
export type OAuthProviderName = OAuthProviderId;

/** The session the client holds after a login. `expiresAt` is in milliseconds. */
export interface SessionInfo {
  organizationId: string;
  userId: string;
  publicKey: string;
  expiresAt: number;
  jwt: string;
}

/**
 * Why the session changed (`@walletkit/client`'s `SessionChange`): `login` (a login or sign-up
 * of this page), `refresh`, `restore` (at load), `sync` (another tab), `expiring` (it will end in
 * `secondsLeft`: its refresh failed), `expired` (it ended by itself) or `logout`.
 */
export type SessionChange =
  | { type: 'login' | 'refresh' | 'restore' | 'sync'; session: SessionInfo }
  | { type: 'expiring'; session: SessionInfo; secondsLeft: number }
  | { type: 'expired' | 'logout' };

/** The user's account as `@walletkit/client` reads it: contacts, linked providers, passkeys, sessions, API keys, wallets. */
export type { UserProfile } from '@walletkit/client';

/** What the account can remove, by kind (the client refuses the last way to sign in). */
export interface AccountActionsLike {
  profile(): Promise<UserProfile>;
  /** Send a one-time code to a new email or phone number; `verifyContact` finishes. */
  startContactVerification(input: { kind: 'email' | 'phone'; contact: string }): Promise<{ otpId: string }>;
  /** Check the code and store the contact as verified (linking it, or replacing the current one). */
  verifyContact(input: { otpId: string; code: string }): Promise<unknown>;
  unlinkContact(kind: 'email' | 'phone'): Promise<unknown>;
  /** Link a social provider through its popup: call it inside the click (the popup opens at once). */
  linkOAuth(provider: OAuthProviderName): Promise<{ providerId: string }>;
  unlinkOAuth(providerId: string): Promise<unknown>;
  removePasskey(authenticatorId: string): Promise<unknown>;
  revokeSession(apiKeyId: string): Promise<unknown>;
}

/** The client's session state. */
export interface SessionState {
  status: 'loading' | 'anonymous' | 'authenticated';
  session?: SessionInfo;
}

/** A private key record as the panel shows it. */
export interface PrivateKeySummary {
  privateKeyId: string;
  privateKeyName: string;
  addresses: Array<{ format: string; address: string }>;
}

/** A wallet as `list_wallets` returns it. */
export interface WalletSummary {
  walletId: string;
  walletName: string;
}

/** An account as `list_wallet_accounts` returns it. */
export interface WalletAccountSummary {
  walletId?: string;
  address: string;
  path: string;
  curve?: string;
  addressFormat?: string;
}

/** One account to derive (create_wallet_accounts), the protocol's `WalletAccountParams`. */
export type WalletAccountParams = ParamsOf<'create_wallet_accounts'>['accounts'][number];

/** An EIP-1193 provider, as announced by EIP-6963 (the kit's own adds events). */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
  // biome-ignore lint/suspicious/noExplicitAny: EIP-1193 listener type; a typed listener such as (accounts: string[]) => void must be assignable
  on?(event: string, listener: (...args: any[]) => void): unknown;
  // biome-ignore lint/suspicious/noExplicitAny: EIP-1193 listener type; a typed listener such as (accounts: string[]) => void must be assignable
  removeListener?(event: string, listener: (...args: any[]) => void): unknown;
}
