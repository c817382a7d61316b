import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ErrorText } from '../auth/ErrorText.js';
import { walletKitKeys } from '../queries.js';
import { useKitQueryClient, useWalletKitContext } from '../provider/context.js';
import { useSession } from '../provider/hooks.js';

type Secret = 'mnemonic' | 'privateKey';

/**
 * Import a recovery phrase (a new wallet) or a private key: the name here, the secret typed inside
 * the secret frame (another origin), which checks it, encrypts it to the enclave's signed import
 * key and hands this page only the ciphertext.
 * @example <ImportWalletForm />
 */
export function ImportWalletForm() {
  const id = useId();
  const { client } = useWalletKitContext();
  const queryClient = useKitQueryClient();
  const orgId = useSession().session?.organizationId ?? '';
  const [name, setName] = useState('');
  const [secret, setSecret] = useState<Secret>('mnemonic');
  const [state, setState] = useState<
    { status: 'idle' | 'open' } | { status: 'done'; name: string; address: string | undefined } | { status: 'error'; error: unknown }
  >({ status: 'idle' });
  const container = useRef<HTMLDivElement>(null);

  const [request, setRequest] = useState<{ secret: Secret; name: string }>();

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
        setState({ status: 'done', name: request.name, address: addresses[0] });
        void queryClient.invalidateQueries({ queryKey: request.secret === 'mnemonic' ? walletKitKeys.wallets(orgId) : walletKitKeys.privateKeys(orgId) });
      },
      (error: unknown) => {
        if (!live) return;
        setRequest(undefined);
        setState({ status: 'error', error });
      },
    );
    return () => {
      live = false;
    };
  }, [request, client, queryClient, orgId]);

  const start = (e: FormEvent) => {
    e.preventDefault();
    const importName = name.trim();
    if (!importName) return;
    setState({ status: 'open' });
    setRequest({ secret, name: importName });
  };
  const kind = secret === 'mnemonic' ? 'recovery phrase' : 'private key';
  return (
    <form className="wk-stack" onSubmit={start} aria-label="Import wallet">
      <fieldset className="wk-stack" disabled={state.status === 'open'}>
        <legend className="wk-label">Import</legend>
        <label className="wk-label" htmlFor={`${id}-kind`}>
          What to import
        </label>
        <select
          id={`${id}-kind`}
          className="wk-input"
          value={secret}
          onChange={(e) => setSecret(e.currentTarget.value === 'privateKey' ? 'privateKey' : 'mnemonic')}
        >
          <option value="mnemonic">Recovery phrase (a new wallet)</option>
          <option value="privateKey">Private key</option>
        </select>
        <label className="wk-label" htmlFor={`${id}-name`}>
          {secret === 'mnemonic' ? 'Imported wallet name' : 'Imported key name'}
        </label>
        <input id={`${id}-name`} className="wk-input" value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <button type="submit" className="wk-button" disabled={!name.trim()}>
          Continue
        </button>
      </fieldset>
      {state.status === 'open' && <p className="wk-hint">Type the {kind} in the secure frame below: this site never sees it, only its encrypted form.</p>}
      <div ref={container} className="wk-frame-host" hidden={state.status !== 'open'} />
      {state.status === 'error' && <ErrorText error={state.error} />}
      {state.status === 'done' && (
        <p className="wk-hint" role="status">
          {secret === 'mnemonic' ? 'Wallet' : 'Key'} {state.name} imported{state.address ? `: ${state.address}` : ''}.
        </p>
      )}
    </form>
  );
}
