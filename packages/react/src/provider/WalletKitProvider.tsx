import { useEffect, useMemo, useRef } from 'react';
import { createWalletKitClient, type WalletKitConfig as ClientConfig } from '@walletkit/client';
import type { OAuthProviderName } from '../client-contract';
import { adaptClient } from './adapt-client';
import { WalletKitClientProvider, type WalletKitClientProviderProps } from './WalletKitClientProvider';

/** Props of {@link WalletKitProvider}. */
export interface WalletKitProviderProps extends Omit<WalletKitClientProviderProps, 'client'> {
  /** `{ proxyUrl, apiUrl, configId, organizationId, enclavePublicKey }` (+ fetch, storage). Read once. */
  config: ClientConfig;
  /** OAuth redirect URL (the page that runs the client's callback); default: wallet_kit_config's. */
  oauthRedirectUri?: string;
  /** Authorization endpoints per provider, for self-hosted or test identity providers; default the providers' own. */
  oauthAuthorizeUrls?: Partial<Record<OAuthProviderName, string>>;
}

/**
 * The kit's root: builds the client from `config` (closed on unmount), restores the session, and gives
 * `useWalletKit()`, `AuthModal` and `WalletPanel` what they need. TanStack Query is a peer:
 * render it inside your `<QueryClientProvider>` or pass `queryClient`; the kit never creates one.
 * @example
 * const queryClient = new QueryClient();
 * <WalletKitProvider config={{ proxyUrl, apiUrl, configId, organizationId, enclavePublicKey }} queryClient={queryClient}>
 *   <App />
 * </WalletKitProvider>
 */
export function WalletKitProvider({ config, oauthRedirectUri, oauthAuthorizeUrls, ...rest }: WalletKitProviderProps) {
  // The client owns timers, storage and a BroadcastChannel: build it once per mount, close it
  // on unmount (refresh timer, channel). StrictMode unmounts and remounts at once: the close
  // waits a task and a remount cancels it.
  const { kit, client } = useMemo(() => {
    const kit = createWalletKitClient(config);
    return { kit, client: adaptClient(kit, { oauthRedirectUri, oauthAuthorizeUrls }) };
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  const closing = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => {
    clearTimeout(closing.current);
    return () => {
      closing.current = setTimeout(() => kit.session.close(), 0);
    };
  }, [kit]);
  return <WalletKitClientProvider client={client} {...rest} />;
}
