import type { SessionInfo, SessionState, WalletAccountParams, WalletSummary } from '../client-contract';
import {
  addPasskeyMutationOptions,
  createAccountsMutationOptions,
  createWalletMutationOptions,
  exportAccountMutationOptions,
  exportWalletMutationOptions,
  importWalletMutationOptions,
  logoutMutationOptions,
  signMessageMutationOptions,
  signTypedDataMutationOptions,
} from '../queries';
import { useWalletKitContext } from './context';
import { useKitMutation, useSession, useWallets } from './hooks';

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
  signMessage: (address: string, message: string) => Promise<string>;
  signTypedData: (address: string, typedData: unknown) => Promise<string>;
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
 * const { status, wallets, login, signMessage } = useWalletKit();
 * if (status === 'anonymous') return <button onClick={login}>Log in</button>;
 */
export function useWalletKit(): WalletKit {
  const { openAuthModal } = useWalletKitContext();
  const { status, session } = useSession();
  const orgId = session?.organizationId ?? '';
  const wallets = useWallets();
  const logout = useKitMutation((c, q) => logoutMutationOptions(c, q));
  const signMessage = useKitMutation((c) => signMessageMutationOptions(c));
  const signTypedData = useKitMutation((c) => signTypedDataMutationOptions(c));
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
    signMessage: (address, message) => signMessage.mutateAsync({ address, message }),
    signTypedData: (address, typedData) => signTypedData.mutateAsync({ address, typedData }),
    createWallet: (name) => createWallet.mutateAsync(name),
    createAccounts: (walletId, accounts) => createAccounts.mutateAsync({ walletId, accounts }),
    exportWallet: (walletId) => exportWallet.mutateAsync(walletId),
    exportAccount: (address) => exportAccount.mutateAsync(address),
    importWallet: (walletName, mnemonic) => importWallet.mutateAsync({ walletName, mnemonic }),
    addPasskey: (name) => addPasskey.mutateAsync(name),
  };
}
