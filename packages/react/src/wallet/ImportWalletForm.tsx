import { useId, useState, type FormEvent } from 'react';
import { ErrorText } from '../auth/ErrorText.js';
import { importWalletMutationOptions } from '../queries.js';
import { useKitMutation, useSession } from '../provider/hooks.js';
import { MNEMONIC_WORD_COUNTS, normalizeMnemonic } from './mnemonic.js';

/**
 * Import a wallet from its recovery phrase: a name and the phrase, checked for 12 to 24 words
 * here, encrypted by the client to the enclave. The phrase field is cleared after success.
 * @example <ImportWalletForm />
 */
export function ImportWalletForm() {
  const id = useId();
  const orgId = useSession().session?.organizationId ?? '';
  const importer = useKitMutation((c, q) => importWalletMutationOptions(c, q, orgId));
  const [name, setName] = useState('');
  const [phrase, setPhrase] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [imported, setImported] = useState<string>();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const mnemonic = normalizeMnemonic(phrase);
    setInvalid(!mnemonic);
    setImported(undefined);
    if (!mnemonic || !name.trim()) return;
    const walletName = name.trim();
    importer.mutate(
      { walletName, mnemonic },
      {
        onSuccess: () => {
          setPhrase('');
          setName('');
          setImported(walletName);
          importer.reset(); // drop the phrase held as the mutation's variables
        },
      },
    );
  };
  return (
    <form className="wk-stack" onSubmit={submit} aria-label="Import wallet">
      <label className="wk-label" htmlFor={`${id}-name`}>
        Imported wallet name
      </label>
      <input id={`${id}-name`} className="wk-input" value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <label className="wk-label" htmlFor={`${id}-phrase`}>
        Recovery phrase
      </label>
      <textarea
        id={`${id}-phrase`}
        className="wk-input"
        rows={3}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        aria-invalid={invalid || undefined}
        aria-describedby={`${id}-hint`}
        value={phrase}
        onChange={(e) => setPhrase(e.currentTarget.value)}
      />
      <p className="wk-hint" id={`${id}-hint`}>
        {MNEMONIC_WORD_COUNTS.join(', ')} words, separated by spaces. It is encrypted in this browser before it is sent.
      </p>
      <ErrorText error={invalid ? `Enter a recovery phrase of ${MNEMONIC_WORD_COUNTS.join(', ')} words.` : importer.error} />
      <button type="submit" className="wk-button" disabled={importer.isPending || !name.trim() || !phrase.trim()}>
        Import wallet
      </button>
      {imported && (
        <p className="wk-hint" role="status">
          Wallet {imported} imported.
        </p>
      )}
    </form>
  );
}
