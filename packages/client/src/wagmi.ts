/**
 * `@walletkit/client/wagmi`: the embedded wallet as a wagmi connector, over the kit's EIP-1193
 * provider. Its own entry point; `@wagmi/core` and `viem` are optional peer dependencies.
 *
 * @example
 * ```ts
 * import { createConfig, http } from '@wagmi/core';
 * import { walletKit } from '@walletkit/client/wagmi';
 * const config = createConfig({ chains: [base], connectors: [walletKit(kit, { onLoginRequired: login })], transports: { [base.id]: http() } });
 * ```
 * @packageDocumentation
 */
import { ChainNotConfiguredError, createConnector } from '@wagmi/core';
import { getAddress, numberToHex, SwitchChainError, UserRejectedRequestError, type Address, type ProviderConnectInfo } from 'viem';
import { WALLETKIT_ICON } from './ethereum/announce.js';
import { createEthereumProvider, type ProviderKit, type WalletKitEthereumProvider } from './ethereum/provider.js';
import { PROVIDER_ERRORS, ProviderRpcError } from './ethereum/provider-errors.js';
import { WalletKitError } from './errors.js';

/** Options of {@link walletKit}. */
export interface WalletKitConnectorOptions {
  /** Opens the kit's login when `connect` runs logged out (the React kit passes its `login()`); without it, `connect` rejects with `ERR_NO_SESSION`. */
  onLoginRequired?: (() => Promise<unknown>) | undefined;
  id?: string | undefined;
  name?: string | undefined;
  icon?: string | undefined;
  rdns?: string | undefined;
}

/** The connector's own helpers (listening to the provider while wagmi is connected). */
interface ConnectorExtras extends Record<string, unknown> {
  listen(provider: WalletKitEthereumProvider): void;
  unlisten(provider: WalletKitEthereumProvider): void;
}

/**
 * The wagmi connector of the kit. `connect` returns the session's Ethereum accounts (logging in
 * first through `onLoginRequired`), `switchChain` changes the kit's selected chain (adding
 * wagmi's chain to the kit when it does not know it), and a login or logout in the kit connects
 * or disconnects wagmi. wagmi's chains become chains of the kit (the kit's own configuration wins).
 *
 * @example
 * ```ts
 * const connector = walletKit(kit, { onLoginRequired: () => openLoginModal() });
 * await connect(config, { connector });
 * ```
 */
export function walletKit(kit: ProviderKit, options: WalletKitConnectorOptions = {}) {
  let provider: WalletKitEthereumProvider | undefined;
  let accountsChanged: ((accounts: string[]) => void) | undefined;
  let chainChanged: ((chainId: string) => void) | undefined;
  let connect: ((info: ProviderConnectInfo) => void) | undefined;
  let disconnect: ((error?: Error) => void) | undefined;

  return createConnector<WalletKitEthereumProvider, ConnectorExtras>((config) => {
    const id = options.id ?? 'walletKit';
    const disconnectedKey = `${id}.disconnected`;
    return {
      id,
      name: options.name ?? 'WalletKit',
      type: walletKit.type,
      icon: options.icon ?? WALLETKIT_ICON,
      rdns: options.rdns ?? 'dev.walletkit',

      async setup() {
        for (const chain of config.chains) {
          const rpcUrl = chain.rpcUrls.default?.http[0];
          if (rpcUrl && !kit.chains.get(chain.id)) {
            kit.chains.add({
              id: chain.id,
              name: chain.name,
              rpcUrl,
              nativeCurrency: chain.nativeCurrency,
              ...(chain.blockExplorers?.default ? { blockExplorerUrl: chain.blockExplorers.default.url } : {}),
            });
          }
        }
        const p = await this.getProvider();
        // A login in the kit (its own modal, another tab) connects wagmi too.
        if (!connect) {
          connect = this.onConnect!.bind(this);
          p.on('connect', connect);
        }
      },

      async connect({ chainId, withCapabilities } = {}) {
        const p = await this.getProvider();
        let accounts: string[];
        try {
          accounts = (await p.request({ method: 'eth_requestAccounts' })) as string[];
        } catch (error) {
          if (error instanceof ProviderRpcError && error.code === PROVIDER_ERRORS.unauthorized) {
            throw new WalletKitError('ERR_NO_SESSION', 'Log in to the wallet before connecting (or pass onLoginRequired to walletKit()).', { cause: error });
          }
          if (error instanceof ProviderRpcError && error.code === PROVIDER_ERRORS.userRejected) throw new UserRejectedRequestError(error);
          throw error;
        }
        let current = await this.getChainId();
        if (chainId !== undefined && chainId !== current) current = (await this.switchChain!({ chainId })).id;
        this.listen(p);
        await config.storage?.removeItem(disconnectedKey);
        const addresses = accounts.map((a) => getAddress(a));
        return {
          accounts: (withCapabilities ? addresses.map((address) => ({ address, capabilities: {} })) : addresses) as never,
          chainId: current,
        };
      },

      async disconnect() {
        // wagmi forgets the wallet; the kit's session stays (logging out is the kit's own action).
        const p = await this.getProvider();
        this.unlisten(p);
        if (!connect) {
          connect = this.onConnect!.bind(this);
          p.on('connect', connect);
        }
        await config.storage?.setItem(disconnectedKey, true);
      },

      async getAccounts() {
        const p = await this.getProvider();
        return ((await p.request({ method: 'eth_accounts' })) as string[]).map((a) => getAddress(a));
      },

      async getChainId() {
        const p = await this.getProvider();
        return Number(await p.request({ method: 'eth_chainId' }));
      },

      async getProvider() {
        provider ??= createEthereumProvider(kit, options.onLoginRequired ? { onLoginRequired: options.onLoginRequired } : {});
        return provider;
      },

      async isAuthorized() {
        if (await config.storage?.getItem(disconnectedKey)) return false;
        try {
          return (await this.getAccounts()).length > 0;
        } catch {
          return false;
        }
      },

      async switchChain({ chainId, addEthereumChainParameter }) {
        const chain = config.chains.find((c) => c.id === chainId);
        if (!chain) throw new SwitchChainError(new ChainNotConfiguredError());
        const p = await this.getProvider();
        try {
          await p.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: numberToHex(chainId) }] });
        } catch (error) {
          if (!(error instanceof ProviderRpcError) || error.code !== PROVIDER_ERRORS.unrecognizedChain) throw new SwitchChainError(error as Error);
          const rpcUrls = addEthereumChainParameter?.rpcUrls?.length ? addEthereumChainParameter.rpcUrls : chain.rpcUrls.default.http;
          await p.request({
            method: 'wallet_addEthereumChain',
            params: [
              {
                chainId: numberToHex(chainId),
                chainName: addEthereumChainParameter?.chainName ?? chain.name,
                nativeCurrency: addEthereumChainParameter?.nativeCurrency ?? chain.nativeCurrency,
                rpcUrls,
              },
            ],
          });
        }
        config.emitter.emit('change', { chainId });
        return chain;
      },

      onAccountsChanged(accounts) {
        if (accounts.length === 0) this.onDisconnect();
        else config.emitter.emit('change', { accounts: accounts.map((a) => getAddress(a)) });
      },

      onChainChanged(chain) {
        config.emitter.emit('change', { chainId: Number(chain) });
      },

      async onConnect(info) {
        const accounts = await this.getAccounts().catch(() => [] as Address[]);
        if (accounts.length === 0) return;
        // Logging in is consent: a login after a wagmi disconnect connects again.
        await config.storage?.removeItem(disconnectedKey);
        config.emitter.emit('connect', { accounts, chainId: Number(info.chainId) });
        const p = await this.getProvider();
        this.listen(p);
      },

      async onDisconnect() {
        const p = await this.getProvider();
        this.unlisten(p);
        if (!connect) {
          connect = this.onConnect!.bind(this);
          p.on('connect', connect);
        }
        config.emitter.emit('disconnect');
      },

      /** Follows the kit while wagmi is connected. */
      listen(p: WalletKitEthereumProvider) {
        if (connect) {
          p.removeListener('connect', connect);
          connect = undefined;
        }
        if (!accountsChanged) {
          accountsChanged = this.onAccountsChanged.bind(this);
          p.on('accountsChanged', accountsChanged);
        }
        if (!chainChanged) {
          chainChanged = this.onChainChanged.bind(this);
          p.on('chainChanged', chainChanged);
        }
        if (!disconnect) {
          disconnect = this.onDisconnect.bind(this);
          p.on('disconnect', disconnect);
        }
      },

      unlisten(p: WalletKitEthereumProvider) {
        if (accountsChanged) p.removeListener('accountsChanged', accountsChanged);
        if (chainChanged) p.removeListener('chainChanged', chainChanged);
        if (disconnect) p.removeListener('disconnect', disconnect);
        accountsChanged = chainChanged = disconnect = undefined;
      },
    };
  });
}
walletKit.type = 'walletKit' as const;
