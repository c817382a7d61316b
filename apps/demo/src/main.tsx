import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { WagmiProvider } from 'wagmi';
import { createWalletKitClient, handleOAuthCallback } from '@walletkit/client';
import { WalletKitProvider } from '@walletkit/react';
import { App } from './App';
import { demoCallbacks } from './CallbackLog';
import { loadDemoConfig, OAUTH_CALLBACK_PATH } from './config';
import { demoWagmiConfig } from './wagmi';
import './styles.css';

const root = createRoot(document.getElementById('root')!);

async function boot(): Promise<void> {
  // In the sign-in popup: hand the provider's reply to the app that opened it, and close.
  if (location.pathname === OAUTH_CALLBACK_PATH && window.opener) {
    handleOAuthCallback();
    return;
  }
  try {
    const config = await loadDemoConfig();
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1 } } });
    // One client for the kit's components and for wagmi (its connector), so both share the
    // session and every signature asks the kit's confirmation dialog.
    const kit = createWalletKitClient(config.kit);
    // The kit's language: `?locale=de` (a shipped locale, a BCP 47 tag or `auto`), else the config's, else English.
    const locale = new URLSearchParams(location.search).get('locale') ?? config.locale;
    const wagmiConfig = demoWagmiConfig(kit, config.kit.chains);
    const page = (
      <QueryClientProvider client={queryClient}>
        <WalletKitProvider
          kit={kit}
          {...demoCallbacks}
          {...(locale ? { locale } : {})}
          {...(config.styleNonce ? { nonce: config.styleNonce } : {})}
          oauthRedirectUri={`${location.origin}${OAUTH_CALLBACK_PATH}`}
          {...(config.oauthAuthorizeUrls ? { oauthAuthorizeUrls: config.oauthAuthorizeUrls } : {})}
        >
          <App devOutboxUrl={config.devOutboxUrl} dapp={wagmiConfig ? { token: config.token, faucetUrl: config.faucetUrl } : undefined} />
        </WalletKitProvider>
      </QueryClientProvider>
    );
    root.render(<StrictMode>{wagmiConfig ? <WagmiProvider config={wagmiConfig}>{page}</WagmiProvider> : page}</StrictMode>);
  } catch (err) {
    root.render(
      <main className="demo">
        <h1>walletkit demo</h1>
        <p role="alert">{err instanceof Error ? err.message : String(err)}</p>
      </main>,
    );
  }
}

void boot();
