import { useState } from 'react';
import type { WalletKitConfig } from '../client-contract.js';
import { Modal } from '../components/Modal.js';
import { useWalletKitContext } from '../provider/context.js';
import { useWalletKitConfig } from '../provider/hooks.js';
import { ContactForm, type OtpSent } from './ContactForm.js';
import { ErrorText } from './ErrorText.js';
import { ExternalWalletButtons, OAuthButton, PasskeyButtons } from './MethodButtons.js';
import { resolveAuthMethods, type AuthMethod, type AuthMethodOverrides } from './methods.js';
import { OtpStep } from './OtpStep.js';

/** Props of {@link AuthModal}. */
export interface AuthModalProps extends AuthMethodOverrides {
  open: boolean;
  onClose: () => void;
  /** Heading; default "Log in to <appName>". */
  title?: string | undefined;
}

/**
 * The login and sign-up modal. It shows only the methods `wallet_kit_config` enables (fetched
 * once through TanStack Query), in the order email, phone, passkey, Google, Apple, X,
 * Discord, external wallet. Local overrides:
 * - `methods`: show only these (a subset of the enabled ones: the server refuses the others);
 * - `order`: put these first, in this order; the rest follow in the default order.
 * Email and phone lead to the one-time-code step (length and charset from the config).
 * Closes itself after a successful login. Inside a `<WalletKitProvider>`, which already
 * renders one for `useWalletKit().login()`.
 * @example
 * <AuthModal open={open} onClose={() => setOpen(false)} methods={['email', 'passkey']} order={['passkey']} />
 */
export function AuthModal({ open, onClose, title, methods, order }: AuthModalProps) {
  const config = useWalletKitConfig();
  const heading = title ?? (config.data?.appName ? `Log in to ${config.data.appName}` : 'Log in');
  return (
    <Modal open={open} onClose={onClose} title={heading}>
      {config.data ? (
        <AuthSteps config={config.data} onDone={onClose} overrides={{ methods, order }} />
      ) : config.error ? (
        <ErrorText error={config.error} />
      ) : (
        <p className="wk-hint" role="status">
          Loading…
        </p>
      )}
    </Modal>
  );
}

function AuthSteps({ config, onDone, overrides }: { config: WalletKitConfig; onDone: () => void; overrides: AuthMethodOverrides }) {
  const { client } = useWalletKitContext();
  const [sent, setSent] = useState<OtpSent>();
  if (sent) return <OtpStep sent={sent} config={config} onDone={onDone} onBack={() => setSent(undefined)} />;
  const list = resolveAuthMethods(config, overrides).filter((m) => m !== 'wallet' || client.auth.connectWallet);
  if (list.length === 0) return <p className="wk-hint">No login method is enabled for this site.</p>;
  return (
    <div className="wk-stack" data-testid="wk-auth-methods">
      {list.map((m) => (
        <MethodEntry key={m} method={m} onDone={onDone} onSent={setSent} />
      ))}
    </div>
  );
}

function MethodEntry({ method, onDone, onSent }: { method: AuthMethod; onDone: () => void; onSent: (s: OtpSent) => void }) {
  switch (method) {
    case 'email':
    case 'sms':
      return <ContactForm kind={method} onSent={onSent} />;
    case 'passkey':
      return <PasskeyButtons onDone={onDone} />;
    case 'wallet':
      return <ExternalWalletButtons onDone={onDone} />;
    default:
      return <OAuthButton provider={method} onDone={onDone} />;
  }
}
