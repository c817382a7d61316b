import type { ChainConfig, LinkedOAuthProvider, ProfileContact, ProfilePasskey, ProfileWallet, SignOptions } from '@walletkit/client';
import { useUser } from '../account/hooks.js';
import type { Eip1193Provider, SessionInfo, SessionState, TransactionParams, WalletAccountParams, WalletSummary } from '../client-contract.js';
import {
  addPasskeyMutationOptions,
  createAccountsMutationOptions,
  createWalletMutationOptions,
  exportAccountMutationOptions,
  exportWalletMutationOptions,
  importWalletMutationOptions,
  logoutMutationOptions,
  sendTransactionMutationOptions,
  signMessageMutationOptions,
  signTransactionMutationOptions,
  signTypedDataMutationOptions,
} from '../queries.js';
import { useWalletKitContext } from './context.js';
import { useChains, useKitMutation, useSession, useWallets } from './hooks.js';

/**
 * The signed-in user: the ids (from the session, at once) and the profile (from `get_user`, once
 * loaded: `loaded` says so; until then the lists are empty). {@link useUser} gives the query itself.
 */
export interface WalletKitUser {
  userId: string;
  organizationId: string;
  /** Whether the profile below is loaded. */
  loaded: boolean;
  /** The email and whether a code proved it (only a verified one signs in). */
  email: ProfileContact | undefined;
  phone: ProfileContact | undefined;
  /** Linked social sign-ins (Google, Apple, X, Discord). */
  oauthProviders: LinkedOAuthProvider[];
  passkeys: ProfilePasskey[];
  /** The embedded wallets with their accounts. */
  wallets: ProfileWallet[];
}

/** What {@link useWalletKit} returns: state and actions (DESIGN section 4). */
export interface WalletKit {
  status: SessionState['status'];
  session: SessionInfo | undefined;
  /** The signed-in user: ids and profile. */
  user: WalletKitUser | undefined;
  /** Wallets of the signed-in user; empty while anonymous or loading. */
  wallets: WalletSummary[];
  /**
   * Open the auth modal: resolves with the session once a login or sign-up completes there (at
   * once when already signed in); rejects with `ERR_LOGIN_CANCELLED` when the modal is closed
   * first. `onClick={login}` may ignore the promise.
   */
  login: () => Promise<SessionInfo>;
  logout: () => Promise<unknown>;
  /** EIP-191, after the kit's confirmation (`{ confirm: false }` skips it: headless flows). */
  signMessage: (address: string, message: string, opts?: SignOptions) => Promise<string>;
  /** EIP-712, after the kit's confirmation. */
  signTypedData: (address: string, typedData: unknown, opts?: SignOptions) => Promise<string>;
  /** Fill (nonce, gas, fees from the chain's RPC), confirm, sign and broadcast: the transaction hash. Balances of the chain refetch. */
  sendTransaction: (params: TransactionParams) => Promise<string>;
  /** Fill, confirm and sign without sending: the `0x` signed serialization. */
  signTransaction: (params: TransactionParams) => Promise<string>;
  /** An account's balance in wei on `chainId` (default: the selected chain). */
  getBalance: (params: { address: string; chainId?: number }) => Promise<bigint>;
  /** The kit's EIP-1193 provider (the same object for the provider's lifetime): hand it to viem, ethers or wagmi. */
  ethereumProvider: Eip1193Provider;
  /** The chains the kit transacts on. */
  chains: readonly ChainConfig[];
  createWallet: (name: string) => Promise<unknown>;
  createAccounts: (walletId: string, accounts: WalletAccountParams[]) => Promise<unknown>;
  /** The wallet's mnemonic, decrypted in this browser. */
  exportWallet: (walletId: string) => Promise<string>;
  /** One account's private key (hex), decrypted in this browser. */
  exportAccount: (address: string) => Promise<string>;
  /** Import a recovery phrase as a new wallet; the wallet list refreshes. */
  importWallet: (walletName: string, mnemonic: string) => Promise<unknown>;
  addPasskey: (name: string) => Promise<unknown>;
}

/**
 * The kit's state and actions, inside a `<WalletKitProvider>`.
 * @example
 * const { status, wallets, login, signMessage, sendTransaction } = useWalletKit();
 * if (status === 'anonymous') return <button onClick={login}>Log in</button>;
 * const session = await login(); // or: try { await login() } catch (e) { if (e.code === 'ERR_LOGIN_CANCELLED') ... }
 * const hash = await sendTransaction({ address, transaction: { to, value: 10n ** 16n } }); // the kit's dialog asks first
 */
export function useWalletKit(): WalletKit {
  const { client, openAuthModal } = useWalletKitContext();
  const { chains } = useChains();
  const { status, session } = useSession();
  const orgId = session?.organizationId ?? '';
  const wallets = useWallets();
  const profile = useUser().data;
  const logout = useKitMutation((c, q) => logoutMutationOptions(c, q));
  const signMessage = useKitMutation((c) => signMessageMutationOptions(c));
  const signTypedData = useKitMutation((c) => signTypedDataMutationOptions(c));
  const sendTransaction = useKitMutation((c, q) => sendTransactionMutationOptions(c, q));
  const signTransaction = useKitMutation((c) => signTransactionMutationOptions(c));
  const createWallet = useKitMutation((c, q) => createWalletMutationOptions(c, q, orgId));
  const createAccounts = useKitMutation((c, q) => createAccountsMutationOptions(c, q, orgId));
  const exportWallet = useKitMutation((c) => exportWalletMutationOptions(c));
  const exportAccount = useKitMutation((c) => exportAccountMutationOptions(c));
  const importWallet = useKitMutation((c, q) => importWalletMutationOptions(c, q, orgId));
  const addPasskey = useKitMutation((c, q) => addPasskeyMutationOptions(c, q, orgId));
  return {
    status,
    session,
    user: session && {
      userId: session.userId,
      organizationId: session.organizationId,
      loaded: profile !== undefined,
      email: profile?.email,
      phone: profile?.phone,
      oauthProviders: profile?.oauthProviders ?? [],
      passkeys: profile?.passkeys ?? [],
      wallets: profile?.wallets ?? [],
    },
    wallets: wallets.data ?? [],
    login: openAuthModal,
    logout: () => logout.mutateAsync(),
    signMessage: (address, message, opts) => signMessage.mutateAsync({ address, message, ...opts }),
    signTypedData: (address, typedData, opts) => signTypedData.mutateAsync({ address, typedData, ...opts }),
    sendTransaction: (params) => sendTransaction.mutateAsync(params),
    signTransaction: (params) => signTransaction.mutateAsync(params),
    getBalance: (params) => client.wallet.getBalance(params),
    ethereumProvider: client.ethereumProvider(),
    chains,
    createWallet: (name) => createWallet.mutateAsync(name),
    createAccounts: (walletId, accounts) => createAccounts.mutateAsync({ walletId, accounts }),
    exportWallet: (walletId) => exportWallet.mutateAsync(walletId),
    exportAccount: (address) => exportAccount.mutateAsync(address),
    importWallet: (walletName, mnemonic) => importWallet.mutateAsync({ walletName, mnemonic }),
    addPasskey: (name) => addPasskey.mutateAsync(name),
  };
}
