// Size probe (a): an app that renders WalletKitProvider + AuthModal. Built by scripts/size.mjs.
import { QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { AuthModal, WalletKitProvider } from '@walletkit/react';

const queryClient = new QueryClient();

function App() {
  const [open, setOpen] = useState(false);
  return (
    <WalletKitProvider
      queryClient={queryClient}
      authModal={false}
      config={{ proxyUrl: '/auth', apiUrl: '/api', configId: 'c', organizationId: 'o', enclavePublicKey: '04' }}
    >
      <button type="button" onClick={() => setOpen(true)}>
        Log in
      </button>
      <AuthModal open={open} onClose={() => setOpen(false)} />
    </WalletKitProvider>
  );
}

createRoot(document.getElementById('root')!).render(<App />);
