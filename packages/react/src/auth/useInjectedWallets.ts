import { useEffect, useState } from 'react';
import { discoverWallets, type DiscoveredWallet } from '@walletkit/client';

/**
 * Browser wallets announced through EIP-6963 (the client's `discoverWallets`), once on mount.
 * @example const wallets = useInjectedWallets(); wallets.map((w) => w.info.name)
 */
export function useInjectedWallets(): DiscoveredWallet[] {
  const [wallets, setWallets] = useState<DiscoveredWallet[]>([]);
  useEffect(() => {
    let live = true;
    void discoverWallets().then((found) => live && setWallets(found));
    return () => {
      live = false;
    };
  }, []);
  return wallets;
}
