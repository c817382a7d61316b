import { lazy, useCallback, useId, useState } from 'react';
import { ErrorText } from '../auth/ErrorText.js';
import type { SessionInfo } from '../client-contract.js';
import { useI18n } from '../i18n/context.js';
import { useChains, useKitMutation, useSession } from '../provider/hooks.js';
import { logoutMutationOptions } from '../queries.js';
import { useKitRoot } from '../theme/theme.js';
import { AccountsScreen } from './AccountsScreen.js';
import { Lazy } from '../components/Lazy.js';
import { isEthereumAddress, shortAddress } from './address.js';
import { forgetPanel, isWalletScreen, recallPanel, rememberPanel, WALLET_SCREENS, type WalletScreen } from './screens.js';
import { panelId, ScreenTabs, tabId } from './ScreenTabs.js';
import { SessionCountdown } from './SessionCountdown.js';
import { useWalletAccounts, type AccountEntry } from './useWalletAccounts.js';

// Every screen but Accounts loads when first opened, apart from the kit's first chunk.
const SendForm = lazy(() => import('./SendForm.js').then((m) => ({ default: m.SendForm })));
const ReceivePanel = lazy(() => import('./ReceivePanel.js').then((m) => ({ default: m.ReceivePanel })));
const SignSection = lazy(() => import('./SignSection.js').then((m) => ({ default: m.SignSection })));
const BackupScreen = lazy(() => import('./BackupScreen.js').then((m) => ({ default: m.BackupScreen })));
const SecurityScreen = lazy(() => import('../account/SecurityScreen.js').then((m) => ({ default: m.SecurityScreen })));

/** Props of {@link WalletPanel} (all optional). */
export interface WalletPanelProps {
  /** The screen shown first when the user has not opened another in this session (default: the first of `screens`). */
  initialScreen?: WalletScreen | undefined;
  /** The screens offered, in this order (default: all of {@link WALLET_SCREENS}). */
  screens?: readonly WalletScreen[] | undefined;
}

/**
 * The signed-in user's wallet as a small app: a header (the selected account, its short address
 * and network, the time left in the session and Log out) over screens — Accounts (wallets and
 * accounts, the full address with Copy and a QR code, balance, network, create a wallet, add an
 * account), Send, Receive, Sign (a message or typed data, after the kit's confirmation), Export &
 * import (`backup`: a recovery phrase or key, through the secret frame) and Security.
 * It remembers the last screen and account for the session. Renders nothing while anonymous.
 * @example {status === 'authenticated' && <WalletPanel />}
 * @example <WalletPanel screens={['accounts', 'receive', 'security']} initialScreen="receive" />
 */
export function WalletPanel({ initialScreen, screens }: WalletPanelProps = {}) {
  const { session } = useSession();
  if (!session) return null;
  // One panel per user: another login starts from that user's own memory.
  return <WalletApp key={`${session.organizationId}/${session.userId}`} session={session} initialScreen={initialScreen} screens={screens} />;
}

function WalletApp({ session, initialScreen, screens }: WalletPanelProps & { session: SessionInfo }) {
  const root = useKitRoot('wk-card wk-wallet');
  const id = useId();
  const { t } = useI18n();
  const user = `${session.organizationId}/${session.userId}`;
  const offered = screens?.filter((s, i) => isWalletScreen(s) && screens.indexOf(s) === i);
  const shown = offered?.length ? offered : WALLET_SCREENS;
  const [memory] = useState(() => recallPanel(user));
  const [screen, setScreen] = useState<WalletScreen>(() => [memory.screen, initialScreen].find((s) => s !== undefined && shown.includes(s)) ?? shown[0]!);
  const [address, setAddress] = useState(memory.address);
  const data = useWalletAccounts();
  const selected = data.accounts.find((a) => a.address.toLowerCase() === address?.toLowerCase()) ?? data.accounts[0];
  const logout = useKitMutation((c, q) => logoutMutationOptions(c, q));
  const current = shown.includes(screen) ? screen : shown[0]!;

  const open = (next: WalletScreen) => {
    setScreen(next);
    rememberPanel(user, { screen: next });
  };
  const select = useCallback(
    (next: string) => {
      setAddress(next);
      rememberPanel(user, { address: next });
    },
    [user],
  );
  const logOut = () => {
    forgetPanel(user);
    logout.mutate();
  };

  return (
    <section {...root} aria-label={t('wallet.title')}>
      <div className="wk-stack">
        <header className="wk-wallet-header">
          <AccountHeading account={selected} loading={data.loading} />
          <button type="button" className="wk-button" disabled={logout.isPending} onClick={logOut}>
            <LogOutIcon />
            {logout.isPending ? t('wallet.loggingOut') : t('wallet.logOut')}
          </button>
        </header>
        <ErrorText error={logout.error} />
        <SessionCountdown expiresAt={session.expiresAt} />
        <ScreenTabs id={id} screens={shown} current={current} onChange={open} />
        {shown.map((s) => (
          <div key={s} role="tabpanel" id={panelId(id, s)} aria-labelledby={tabId(id, s)} hidden={s !== current} className="wk-screen">
            {s === current && <Screen screen={s} data={data} selected={selected} onSelect={select} onOpen={open} />}
          </div>
        ))}
      </div>
    </section>
  );
}

/** The header's account: wallet and account name, short address, network. */
function AccountHeading({ account, loading }: { account: AccountEntry | undefined; loading: boolean }) {
  const { t } = useI18n();
  const { chains, selectedId } = useChains();
  const network = chains.find((c) => c.id === selectedId)?.name;
  if (!account) return <p className="wk-hint">{loading ? t('common.loading') : t('wallet.noAccount')}</p>;
  return (
    <div className="wk-identity">
      <Avatar address={account.address} />
      <div className="wk-identity-text">
        <h2 className="wk-identity-name">
          <bdi>{account.wallet.walletName}</bdi> · {t('wallet.accountName', { number: account.number })}
        </h2>
        <p className="wk-hint">
          <span className="wk-mono" title={account.address} dir="ltr">
            {shortAddress(account.address)}
          </span>
          {network && isEthereumAddress(account.address) && (
            <span>
              {' · '}
              <bdi>{network}</bdi>
            </span>
          )}
        </p>
      </div>
    </div>
  );
}

/** A small picture of the address (two colors from its bytes), so accounts are told apart at a glance. */
function Avatar({ address }: { address: string }) {
  const hex = address.replace(/^0x/i, '').toLowerCase();
  const hue = (at: number) => (Number.parseInt(hex.slice(at, at + 3), 16) || at * 97) % 360;
  const gradient = `wk-avatar-${useId().replace(/[^\w-]/g, '')}`;
  return (
    <svg className="wk-avatar" viewBox="0 0 32 32" aria-hidden="true">
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={`hsl(${hue(0)} 70% 55%)`} />
          <stop offset="1" stopColor={`hsl(${hue(6)} 70% 45%)`} />
        </linearGradient>
      </defs>
      <circle cx="16" cy="16" r="16" fill={`url(#${gradient})`} />
    </svg>
  );
}

function LogOutIcon() {
  return (
    <svg
      className="wk-icon wk-flip"
      viewBox="0 0 24 24"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10" />
    </svg>
  );
}

interface ScreenProps {
  screen: WalletScreen;
  data: ReturnType<typeof useWalletAccounts>;
  selected: AccountEntry | undefined;
  onSelect: (address: string) => void;
  onOpen: (screen: WalletScreen) => void;
}

/** One screen's content; the lazy ones inside their loading and failure states. */
function Screen({ screen, data, selected, onSelect, onOpen }: ScreenProps) {
  const { t } = useI18n();
  const { chains, selectedId } = useChains();
  if (screen === 'accounts') return <AccountsScreen data={data} selected={selected} onSelect={onSelect} />;
  if (screen === 'backup') return <Lazy>{<BackupScreen data={data} />}</Lazy>;
  if (screen === 'security') return <Lazy>{<SecurityScreen />}</Lazy>;
  if (!selected) return <NoAccount loading={data.loading} onOpen={onOpen} />;
  switch (screen) {
    case 'send':
      if (!isEthereumAddress(selected.address)) return <p className="wk-hint">{t('wallet.sendNeedsEthereum')}</p>;
      if (selectedId === undefined || chains.length === 0) return <p className="wk-hint">{t('wallet.noChain')}</p>;
      return <Lazy>{<SendForm key={selected.address} address={selected.address} chains={chains} defaultChainId={selectedId} />}</Lazy>;
    case 'receive':
      return <Lazy>{<ReceivePanel key={selected.address} address={selected.address} />}</Lazy>;
    case 'sign':
      return <Lazy>{<SignSection key={selected.address} address={selected.address} />}</Lazy>;
  }
}

/** No account to act with: loading, or the way to make one. */
function NoAccount({ loading, onOpen }: { loading: boolean; onOpen: (screen: WalletScreen) => void }) {
  const { t } = useI18n();
  if (loading)
    return (
      <p className="wk-hint" role="status">
        {t('wallet.loadingWallets')}
      </p>
    );
  return (
    <div className="wk-stack wk-empty">
      <p className="wk-hint">{t('wallet.needsAccount')}</p>
      <div className="wk-row">
        <button type="button" className="wk-button" data-variant="primary" onClick={() => onOpen('accounts')}>
          {t('wallet.createFirstWallet')}
        </button>
      </div>
    </div>
  );
}
