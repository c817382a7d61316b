import type { ChainConfig, SignOptions } from '@walletkit/client';
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

/** What {@link useWalletKit} returns: state and actions (DESIGN section 4). */
export interface WalletKit {
  status: SessionState['status'];
  session: SessionInfo | undefined;
  /** The signed-in user's ids (from the session). */
  user: { userId: string; organizationId: string } | undefined;
  /** Wallets of the signed-in user; empty while anonymous or loading. */
  wallets: WalletSummary[];
  /** Open the auth modal. */
  login: () => void;
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
 * const hash = await sendTransaction({ address, transaction: { to, value: 10n ** 16n } }); // the kit's dialog asks first
 */
export function useWalletKit(): WalletKit {
  const { client, openAuthModal } = useWalletKitContext();
  const { chains } = useChains();
  const { status, session } = useSession();
  const orgId = session?.organizationId ?? '';
  const wallets = useWallets();
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
  const addPasskey = useKitMutation((c) => addPasskeyMutationOptions(c));
  return {
    status,
    session,
    user: session && { userId: session.userId, organizationId: session.organizationId },
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
