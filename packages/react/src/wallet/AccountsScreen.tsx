import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { ErrorText } from '../auth/ErrorText.js';
import { useI18n } from '../i18n/context.js';
import { useChains, useKitMutation, useSession } from '../provider/hooks.js';
import { createAccountsMutationOptions, createWalletMutationOptions } from '../queries.js';
import { isEthereumAddress, shortAddress } from './address.js';
import { Balance, NetworkSelect } from './Balance.js';
import { CopyButton } from './CopyButton.js';
import { NameForm } from './NameForm.js';
import type { AccountEntry, WalletAccounts } from './useWalletAccounts.js';
import { nextEthereumAccount } from './next-account.js';

// The QR encoder is the panel's largest dependency: loaded when a QR code is first shown.
const QrCode = lazy(() => import('./QrCode.js').then((m) => ({ default: m.QrCode })));

/** Props of {@link AccountsScreen}. */
export interface AccountsScreenProps {
  data: WalletAccounts;
  selected: AccountEntry | undefined;
  onSelect: (address: string) => void;
}

/**
 * The Accounts screen: choose among the user's wallets and accounts, the selected account's
 * full address (copy, QR code), its balance on the selected network and the network selector,
 * add an account, create a wallet; "Create your first wallet" when there is none yet.
 * @example <AccountsScreen data={useWalletAccounts()} selected={account} onSelect={setAddress} />
 */
export function AccountsScreen({ data, selected, onSelect }: AccountsScreenProps) {
  const { t } = useI18n();
  if (data.loading && data.accounts.length === 0) {
    return (
      <p className="wk-hint" role="status">
        {t('wallet.loadingWallets')}
      </p>
    );
  }
  if (data.error && data.accounts.length === 0) {
    return (
      <div className="wk-stack">
        <ErrorText error={data.error} />
        <div className="wk-row">
          <button type="button" className="wk-button" onClick={data.refetch}>
            {t('common.retry')}
          </button>
        </div>
      </div>
    );
  }
  if (data.wallets.length === 0) return <FirstWallet />;
  return (
    <div className="wk-stack wk-screen-body">
      <AccountPicker data={data} selected={selected} onSelect={onSelect} />
      {selected && <AccountDetails account={selected} />}
      <hr className="wk-divider" />
      <NewWallet />
    </div>
  );
}

/** The account select (grouped by wallet) and "Add account" to the selected account's wallet. */
function AccountPicker({ data, selected, onSelect }: AccountsScreenProps) {
  const id = useId();
  const { t, dir } = useI18n();
  const orgId = useSession().session?.organizationId ?? '';
  const create = useKitMutation((c, q) => createAccountsMutationOptions(c, q, orgId));
  const [added, setAdded] = useState<{ walletId: string; count: number }>();
  const wallet = selected ? data.wallets.find((w) => w.wallet.walletId === selected.wallet.walletId) : data.wallets[0];
  // Once the new account is listed, it becomes the selected one.
  useEffect(() => {
    if (!added) return;
    const list = data.wallets.find((w) => w.wallet.walletId === added.walletId)?.accounts ?? [];
    if (list.length > added.count) {
      setAdded(undefined);
      onSelect(list[list.length - 1]!.address);
    }
  }, [added, data.wallets, onSelect]);
  const add = () => {
    if (!wallet) return;
    const count = wallet.accounts.length;
    create.mutate(
      { walletId: wallet.wallet.walletId, accounts: [nextEthereumAccount(wallet.accounts)] },
      { onSuccess: () => setAdded({ walletId: wallet.wallet.walletId, count }) },
    );
  };
  return (
    <div className="wk-stack">
      <label className="wk-label" htmlFor={id}>
        {t('wallet.account')}
      </label>
      <div className="wk-row wk-name-row">
        <select id={id} className="wk-input" value={selected?.address ?? ''} onChange={(e) => onSelect(e.currentTarget.value)}>
          {data.wallets.map(({ wallet: w, accounts }) => (
            <optgroup key={w.walletId} label={w.walletName}>
              {accounts.map((a) => (
                <option key={a.address} value={a.address}>
                  {/* Right to left, the address is isolated as left-to-right text (U+2066 … U+2069). */}
                  {t('wallet.accountOption', {
                    name: t('wallet.accountName', { number: a.number }),
                    address: dir === 'rtl' ? `\u2066${shortAddress(a.address)}\u2069` : shortAddress(a.address),
                  })}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
        {wallet && (
          <button
            type="button"
            className="wk-button"
            onClick={add}
            disabled={create.isPending || wallet.loading}
            aria-busy={create.isPending || undefined}
            aria-label={t('wallet.addAccountTo', { wallet: wallet.wallet.walletName })}
          >
            <span aria-hidden="true">+</span> {t('wallet.addAccount')}
          </button>
        )}
      </div>
      <ErrorText error={create.error} />
      {create.isSuccess && !added && (
        <p className="wk-hint" role="status">
          {t('wallet.accountAdded')}
        </p>
      )}
    </div>
  );
}

/** The selected account: full address with Copy and a QR code, balance and network. */
function AccountDetails({ account }: { account: AccountEntry }) {
  const id = useId();
  const { t } = useI18n();
  const { chains, selectedId } = useChains();
  const [qr, setQr] = useState(false);
  const ethereum = isEthereumAddress(account.address);
  return (
    <section className="wk-stack wk-surface" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`} className="wk-label">
        <bdi>{account.wallet.walletName}</bdi> · {t('wallet.accountName', { number: account.number })}
      </h3>
      <p className="wk-code wk-address" data-testid="wk-account-address" dir="ltr">
        {account.address}
      </p>
      <div className="wk-row">
        <CopyButton text={account.address} label={t('wallet.copyAddress')} copied={t('wallet.addressCopied')} failed={t('wallet.copyFailed')} />
        <button type="button" className="wk-button" aria-expanded={qr} aria-controls={`${id}-qr`} onClick={() => setQr((v) => !v)}>
          {qr ? t('wallet.hideQr') : t('wallet.showQr')}
        </button>
      </div>
      <div id={`${id}-qr`} className="wk-qr" hidden={!qr}>
        {qr && (
          <Suspense fallback={<p className="wk-hint">{t('common.loading')}</p>}>
            <QrCode value={account.address} label={t('wallet.qrLabel', { address: account.address })} />
          </Suspense>
        )}
      </div>
      {!ethereum ? (
        <p className="wk-hint">{t('wallet.receiveOnly')}</p>
      ) : selectedId === undefined || chains.length === 0 ? (
        <p className="wk-hint">{t('wallet.noChain')}</p>
      ) : (
        <div className="wk-grid">
          <Balance address={account.address} chainId={selectedId} />
          <NetworkSelect />
        </div>
      )}
    </section>
  );
}

/** "New wallet": a name, then Create wallet (folded until asked for). */
function NewWallet() {
  const { t } = useI18n();
  const orgId = useSession().session?.organizationId ?? '';
  const [open, setOpen] = useState(false);
  const create = useKitMutation((c, q) => createWalletMutationOptions(c, q, orgId));
  const [created, setCreated] = useState<string>();
  if (!open) {
    return (
      <div className="wk-stack">
        <div className="wk-row">
          <button type="button" className="wk-button" onClick={() => setOpen(true)}>
            <span aria-hidden="true">+</span> {t('wallet.newWallet')}
          </button>
        </div>
        {created && (
          <p className="wk-hint" role="status">
            {t('wallet.walletCreated', { name: created })}
          </p>
        )}
      </div>
    );
  }
  return (
    <NameForm
      label={t('wallet.newWalletName')}
      submitLabel={t('wallet.createWallet')}
      busy={create.isPending}
      error={create.error}
      focusOnMount
      cancel={{ label: t('common.cancel'), onCancel: () => setOpen(false) }}
      onSubmit={(name) =>
        create.mutate(name, {
          onSuccess: () => {
            setCreated(name);
            setOpen(false);
          },
        })
      }
    />
  );
}

/** No wallet yet: one clear action. */
function FirstWallet() {
  const { t } = useI18n();
  const orgId = useSession().session?.organizationId ?? '';
  const create = useKitMutation((c, q) => createWalletMutationOptions(c, q, orgId));
  return (
    <div className="wk-stack wk-empty">
      <p className="wk-title">{t('wallet.emptyTitle')}</p>
      <p className="wk-hint">{t('wallet.emptyHint')}</p>
      <NameForm
        label={t('wallet.newWalletName')}
        defaultName={t('wallet.defaultWalletName')}
        submitLabel={t('wallet.createFirstWallet')}
        busy={create.isPending}
        error={create.error}
        primary
        onSubmit={(name) => create.mutate(name)}
      />
    </div>
  );
}
