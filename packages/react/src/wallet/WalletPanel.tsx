import { lazy, Suspense, useState } from 'react';
import { addPasskeyMutationOptions, createWalletMutationOptions, logoutMutationOptions } from '../queries.js';
import { useKitMutation, useSession, useWallets } from '../provider/hooks.js';
import { useKitRoot } from '../theme/theme.js';
import { ImportWalletForm } from './ImportWalletForm.js';
import { PrivateKeyList } from './PrivateKeyList.js';
import { NameForm } from './NameForm.js';
import { SessionCountdown } from './SessionCountdown.js';
import { SignSection } from './SignSection.js';
import { WalletCard } from './WalletCard.js';
import { ErrorText } from '../auth/ErrorText.js';
import { FailureBoundary } from '../components/FailureBoundary.js';

// Balance, Send and Receive load apart from the kit's first chunk (decision 0016).
const AccountSection = lazy(() => import('./AccountSection.js').then((m) => ({ default: m.AccountSection })));

/**
 * The signed-in user's wallet: wallets and accounts, the selected account's balance on the
 * kit's selected chain, Send and Receive (address, copy, QR code), create a wallet or an
 * account, sign a message or typed data (after the kit's confirmation), export a recovery
 * phrase or an account's key, import a wallet from its recovery phrase, add a passkey, log
 * out, and the time left in the session. Renders nothing while anonymous.
 * @example {status === 'authenticated' && <WalletPanel />}
 */
export function WalletPanel() {
  const root = useKitRoot('wk-card');
  const { session } = useSession();
  const orgId = session?.organizationId ?? '';
  const wallets = useWallets();
  const [address, setAddress] = useState<string>();
  const createWallet = useKitMutation((c, q) => createWalletMutationOptions(c, q, orgId));
  const addPasskey = useKitMutation((c) => addPasskeyMutationOptions(c));
  const logout = useKitMutation((c, q) => logoutMutationOptions(c, q));
  if (!session) return null;

  return (
    <section {...root} aria-label="Wallet">
      <div className="wk-stack">
        <div className="wk-row" style={{ justifyContent: 'space-between' }}>
          <SessionCountdown expiresAt={session.expiresAt} />
          <button type="button" className="wk-button" disabled={logout.isPending} onClick={() => logout.mutate()}>
            Log out
          </button>
        </div>
        <ErrorText error={wallets.error ?? logout.error} />
        <ul className="wk-list" aria-label="Wallets">
          {(wallets.data ?? []).map((w) => (
            <WalletCard key={w.walletId} wallet={w} selected={address} onSelect={setAddress} />
          ))}
        </ul>
        <NameForm
          label="New wallet name"
          submitLabel="Create wallet"
          busy={createWallet.isPending}
          error={createWallet.error}
          onSubmit={(name) => createWallet.mutate(name)}
        />
        <PrivateKeyList />
        <ImportWalletForm />
        {address ? (
          <>
            <FailureBoundary fallback={<ErrorText error="The balance, Send and Receive could not load. Reload the page to try again." />}>
              <Suspense fallback={<p className="wk-hint">Loading the account…</p>}>
                <AccountSection key={`account-${address}`} address={address} />
              </Suspense>
            </FailureBoundary>
            <SignSection key={address} address={address} />
          </>
        ) : (
          <p className="wk-hint">Select an account to see its balance, send, receive or sign.</p>
        )}
        <hr className="wk-divider" />
        <NameForm
          label="New passkey name"
          submitLabel="Add passkey"
          busy={addPasskey.isPending}
          error={addPasskey.error}
          onSubmit={(name) => addPasskey.mutate(name)}
        />
        {addPasskey.isSuccess && (
          <p className="wk-hint" role="status">
            Passkey added.
          </p>
        )}
      </div>
    </section>
  );
}
