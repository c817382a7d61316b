import { useQueries } from '@tanstack/react-query';
import type { WalletAccountSummary, WalletSummary } from '../client-contract.js';
import { useKitQueryClient, useWalletKitContext } from '../provider/context.js';
import { useSession, useWallets } from '../provider/hooks.js';
import { accountsQueryOptions } from '../queries.js';

/** One account as the panel lists it: its wallet and its number in that wallet (1-based). */
export interface AccountEntry extends WalletAccountSummary {
  wallet: WalletSummary;
  number: number;
}

/** The user's wallets with their accounts, and every account in one list. */
export interface WalletAccounts {
  wallets: Array<{ wallet: WalletSummary; accounts: AccountEntry[]; loading: boolean }>;
  accounts: AccountEntry[];
  /** The wallet list (or one of the account lists) is loading for the first time. */
  loading: boolean;
  error: unknown;
  refetch: () => void;
}

/**
 * The signed-in user's wallets and each wallet's accounts (one query per wallet, the keys of
 * `queries.ts`, so creating an account or a wallet refreshes them).
 * @example const { accounts, loading } = useWalletAccounts();
 */
export function useWalletAccounts(): WalletAccounts {
  const { client } = useWalletKitContext();
  const orgId = useSession().session?.organizationId ?? '';
  const wallets = useWallets();
  const list = wallets.data ?? [];
  const accounts = useQueries({ queries: list.map((w) => accountsQueryOptions(client, orgId, w.walletId)) }, useKitQueryClient());
  const grouped = list.map((wallet, i) => {
    const query = accounts[i];
    return {
      wallet,
      accounts: (query?.data ?? []).map((a, n) => ({ ...a, wallet, number: n + 1 })),
      loading: query?.isPending ?? true,
    };
  });
  return {
    wallets: grouped,
    accounts: grouped.flatMap((g) => g.accounts),
    loading: wallets.isPending || accounts.some((q) => q.isPending),
    error: wallets.error ?? accounts.find((q) => q.error)?.error ?? null,
    refetch: () => {
      void wallets.refetch();
      for (const q of accounts) if (q.isError) void q.refetch();
    },
  };
}
