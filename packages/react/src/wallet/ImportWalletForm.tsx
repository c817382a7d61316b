import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { WalletKitError } from '@walletkit/client';
import { ErrorText } from '../auth/ErrorText.js';
import { errorCodeOf } from '../errors.js';
import { useI18n } from '../i18n/context.js';
import { useKitQueryClient, useWalletKitContext } from '../provider/context.js';
import { notify, useSession } from '../provider/hooks.js';
import { useKitOptions } from '../provider/options.js';
import { walletKitKeys } from '../queries.js';
import { useFrameLocale } from './frame-locale.js';

type Secret = 'mnemonic' | 'privateKey';

/**
 * The server's refusal of an imported phrase, said as the frame says it: the enclave answers
 * `ERR_INVALID_PARAMETER` when the decrypted phrase is not BIP39 (the frame checks the words
 * and checksum first, so this is rare), which the kit reports as `ERR_MNEMONIC_INVALID`.
 */
function importError(error: unknown, secret: Secret): unknown {
  return secret === 'mnemonic' && errorCodeOf(error) === 'ERR_INVALID_PARAMETER'
    ? new WalletKitError('ERR_MNEMONIC_INVALID', undefined, { cause: error })
    : error;
}

/**
 * Import a recovery phrase (a new wallet) or a private key: the name here, the secret typed inside
 * the secret frame (another origin, in the kit's language), which checks it (BIP39 words and
 * checksum, or 64 hex characters), encrypts it to the enclave's signed import key and hands this
 * page only the ciphertext.
 * @example <ImportWalletForm />
 */
export function ImportWalletForm() {
  const id = useId();
  const { client } = useWalletKitContext();
  const { t, locale } = useI18n();
  const { onError } = useKitOptions();
  const report = useRef(onError);
  report.current = onError;
  const queryClient = useKitQueryClient();
  const orgId = useSession().session?.organizationId ?? '';
  const [name, setName] = useState('');
  const [secret, setSecret] = useState<Secret>('mnemonic');
  const [state, setState] = useState<
    | { status: 'idle' | 'open' }
    | { status: 'done'; secret: Secret; name: string; address: string | undefined }
    | { status: 'error'; secret: Secret; error: unknown }
  >({ status: 'idle' });
  const container = useRef<HTMLDivElement>(null);
  const [request, setRequest] = useState<{ secret: Secret; name: string }>();
  useFrameLocale(container, locale, request !== undefined, t(request?.secret === 'privateKey' ? 'wallet.frameTitleKey' : 'wallet.frameTitlePhrase'));

  // The frame host is in the document once the request is set: start the import there, once.
  useEffect(() => {
    if (!request || !container.current) return;
    let live = true;
    const host = container.current;
    client.wallet.importInFrame(host, request).then(
      ({ addresses }) => {
        if (!live) return;
        host.replaceChildren(); // the frame's work is done: remove it
        setName('');
        setRequest(undefined);
        setState({ status: 'done', secret: request.secret, name: request.name, address: addresses[0] });
        void queryClient.invalidateQueries({ queryKey: request.secret === 'mnemonic' ? walletKitKeys.wallets(orgId) : walletKitKeys.privateKeys(orgId) });
      },
      (error: unknown) => {
        if (!live) return;
        host.replaceChildren();
        setRequest(undefined);
        const shown = importError(error, request.secret);
        setState({ status: 'error', secret: request.secret, error: shown });
        notify(report.current, shown); // the integrator hears it too, as for every failed action
      },
    );
    return () => {
      live = false;
    };
  }, [request, client, queryClient, orgId]);

  const start = (e: FormEvent) => {
    e.preventDefault();
    const importName = name.trim();
    if (!importName || request) return;
    setState({ status: 'open' });
    setRequest({ secret, name: importName });
  };
  const cancel = () => {
    container.current?.replaceChildren();
    setRequest(undefined);
    setState({ status: 'idle' });
  };
  const open = state.status === 'open';
  return (
    <form className="wk-stack" onSubmit={start} aria-label={t('wallet.importForm')}>
      <fieldset className="wk-stack wk-fieldset" disabled={open}>
        <legend className="wk-visually-hidden">{t('wallet.importTitle')}</legend>
        <label className="wk-label" htmlFor={`${id}-kind`}>
          {t('wallet.importWhat')}
        </label>
        <select
          id={`${id}-kind`}
          className="wk-input"
          value={secret}
          onChange={(e) => setSecret(e.currentTarget.value === 'privateKey' ? 'privateKey' : 'mnemonic')}
        >
          <option value="mnemonic">{t('wallet.importPhraseOption')}</option>
          <option value="privateKey">{t('wallet.importKeyOption')}</option>
        </select>
        <label className="wk-label" htmlFor={`${id}-name`}>
          {secret === 'mnemonic' ? t('wallet.importWalletName') : t('wallet.importKeyName')}
        </label>
        <input id={`${id}-name`} className="wk-input" maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <div className="wk-row">
          <button type="submit" className="wk-button" data-variant="primary" disabled={!name.trim()}>
            {t('common.continue')}
          </button>
        </div>
      </fieldset>
      {open && <p className="wk-hint">{secret === 'mnemonic' ? t('wallet.importTypePhrase') : t('wallet.importTypeKey')}</p>}
      <div ref={container} className="wk-frame-host wk-frame-import" hidden={!open} />
      {open && (
        <div className="wk-row">
          <button type="button" className="wk-button" data-variant="ghost" onClick={cancel}>
            {t('common.cancel')}
          </button>
        </div>
      )}
      {state.status === 'error' && <ErrorText error={state.error} />}
      {state.status === 'done' && (
        <p className="wk-hint wk-success" role="status">
          {state.secret === 'mnemonic'
            ? state.address
              ? t('wallet.importedWallet', { name: state.name, address: state.address })
              : t('wallet.importedWalletNoAddress', { name: state.name })
            : state.address
              ? t('wallet.importedKey', { name: state.name, address: state.address })
              : t('wallet.importedKeyNoAddress', { name: state.name })}
        </p>
      )}
    </form>
  );
}
