import { useEffect, useMemo, useRef } from 'react';
import {
  announceProvider,
  createWalletKitClient,
  walletKitProviderInfo,
  type Eip6963ProviderInfo,
  type WalletKitClient,
  type WalletKitConfig as ClientConfig,
  type WalletKitEthereumProvider,
} from '@walletkit/client';
import type { OAuthProviderName } from '../client-contract.js';
import { createConfirmationQueue } from '../confirm/queue.js';
import { adaptClient } from './adapt-client.js';
import { WalletKitClientProvider, type WalletKitClientProviderProps } from './WalletKitClientProvider.js';

/** The client the provider builds from `config`, or one the app built (to share it with wagmi). */
type ClientSource =
  | {
      /**
       * `{ proxyUrl, apiUrl, configId, organizationId, enclavePublicKey }` (+ chains, defaultChainId,
       * fetch, storage). Read once. A `confirm` of your own replaces the kit's confirmation dialog.
       */
      config: ClientConfig;
      kit?: undefined;
    }
  | {
      /**
       * A client from `createWalletKitClient(config)` that the app also hands to the wagmi
       * connector or a viem account. The provider installs its confirmation dialog on it (unless
       * the config brought a `confirm`) and leaves its lifetime to the app.
       */
      kit: WalletKitClient;
      config?: undefined;
    };

/** Props of {@link WalletKitProvider}. */
export type WalletKitProviderProps = ClientSource &
  Omit<WalletKitClientProviderProps, 'client' | 'confirmations'> & {
    /**
     * `false` turns the kit's confirmation dialog off (headless: requests are signed as they
     * come unless `config.confirm` asks). To skip it for one call only, pass `{ confirm: false }`
     * to that call instead.
     */
    confirmations?: false | undefined;
    /**
     * The kit's EIP-1193 provider is announced through EIP-6963 so that other dApp code on the page
     * (RainbowKit, ConnectKit, plain wagmi) finds it: as "WalletKit" by default, under your name,
     * icon and reverse domain if given, or not at all with `false`.
     */
    announce?: false | Partial<Eip6963ProviderInfo> | undefined;
    /** OAuth redirect URL (the page that runs the client's callback); default: wallet_kit_config's. */
    oauthRedirectUri?: string | undefined;
    /** Authorization endpoints per provider, for self-hosted or test identity providers; default the providers' own. */
    oauthAuthorizeUrls?: Partial<Record<OAuthProviderName, string>> | undefined;
  };

/**
 * The kit's root: builds the client from `config` (closed on unmount), restores the session, and gives
 * `useWalletKit()`, `AuthModal` and `WalletPanel` what they need. Every signature request of
 * the client opens the kit's confirmation dialog, one at a time in order (see `confirmations`).
 * TanStack Query is a peer: render it inside your `<QueryClientProvider>` or pass
 * `queryClient`; the kit never creates one.
 * @example
 * const queryClient = new QueryClient();
 * <WalletKitProvider config={{ proxyUrl, apiUrl, configId, organizationId, enclavePublicKey }} queryClient={queryClient}>
 *   <App />
 * </WalletKitProvider>
 * // or, sharing the client with wagmi: const kit = createWalletKitClient(config); <WalletKitProvider kit={kit}>
 */
export function WalletKitProvider({ config, kit: given, oauthRedirectUri, oauthAuthorizeUrls, confirmations, announce, ...rest }: WalletKitProviderProps) {
  // The client owns timers, storage and a BroadcastChannel: build it once per mount, close it
  // on unmount (refresh timer, channel). StrictMode unmounts and remounts at once: the close
  // waits a task and a remount cancels it. A client the app built is the app's to close.
  // biome-ignore lint/correctness/useExhaustiveDependencies: built once per mount; later prop changes must not replace the client
  const { kit, client, queue } = useMemo(() => {
    // Every signature of this client (hooks, panel, EIP-1193 provider, viem account, wagmi) asks
    // this one Confirmer: the kit's dialog, unless the integrator brought their own or opted out.
    const ownConfirm = (given ?? { config }).config?.confirm;
    const queue = ownConfirm || confirmations === false ? undefined : createConfirmationQueue();
    const kit = given ?? createWalletKitClient(queue ? { ...config!, confirm: queue.confirm } : config!);
    return { kit, queue, client: adaptClient(kit, { oauthRedirectUri, oauthAuthorizeUrls }) };
  }, []);
  const closing = useRef<ReturnType<typeof setTimeout>>(undefined);
  const restoreConfirmer = useRef<() => void>(undefined);
  useEffect(() => {
    clearTimeout(closing.current);
    if (given && queue && !restoreConfirmer.current) restoreConfirmer.current = kit.setConfirmer(queue.confirm);
    return () => {
      closing.current = setTimeout(() => {
        if (!given) kit.session.close();
        restoreConfirmer.current?.();
        restoreConfirmer.current = undefined;
        // Nobody is left to answer: waiting callers get ERR_USER_REJECTED instead of hanging.
        queue?.declineAll();
      }, 0);
    };
  }, [kit, queue, given]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: announced once per client; a new announce object each render must not re-announce
  useEffect(() => {
    if (announce === false) return undefined;
    return announceProvider(client.ethereumProvider() as WalletKitEthereumProvider, walletKitProviderInfo(announce));
  }, [client]);
  return <WalletKitClientProvider client={client} {...(queue ? { confirmations: queue } : {})} {...rest} />;
}
