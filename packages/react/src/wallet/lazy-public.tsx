import { type ComponentProps, lazy } from 'react';
import type { AccountKeyExport as AccountKeyExportScreen } from './AccountKeyExport.js';
import { Lazy } from '../components/Lazy.js';

// The secret-frame parts are chunks of their own, fetched when first rendered (decision 0016,
// "Bundle size (issue 15)"): what an app renders at start does not carry them.
const ImportForm = lazy(() => import('./ImportWalletForm.js').then((m) => ({ default: m.ImportWalletForm })));
const KeyExport = lazy(() => import('./AccountKeyExport.js').then((m) => ({ default: m.AccountKeyExport })));

/**
 * Import a wallet by recovery phrase or private key, typed inside the secret frame (another
 * origin: this page never holds it). Loaded on demand: "Loading…" the first time, a message if
 * its chunk cannot be fetched.
 * @example {status === 'authenticated' && <ImportWalletForm />}
 */
export function ImportWalletForm() {
  return (
    <Lazy>
      <ImportForm />
    </Lazy>
  );
}

/**
 * Export one account's private key: shown only after confirmation, inside the secret frame.
 * Loaded on demand, as {@link ImportWalletForm}.
 * @example <AccountKeyExport address={account.address} />
 */
export function AccountKeyExport(props: ComponentProps<typeof AccountKeyExportScreen>) {
  return (
    <Lazy>
      <KeyExport {...props} />
    </Lazy>
  );
}
