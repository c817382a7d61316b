import { useWalletKit, WalletPanel } from '@walletkit/react';

export function App() {
  const { status, login } = useWalletKit();
  return (
    <main className="page">
      <h1>walletkit + Vite</h1>
      {status === 'authenticated' ? (
        <WalletPanel />
      ) : (
        <button type="button" className="primary" disabled={status === 'loading'} onClick={() => login()}>
          Log in
        </button>
      )}
    </main>
  );
}
