import { useId, useState } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorText } from '../auth/ErrorText';
import { signMessageMutationOptions, signTypedDataMutationOptions } from '../queries';
import { useKitMutation } from '../provider/hooks';

type Pending = { kind: 'message'; message: string } | { kind: 'typed'; typedData: unknown; shown: string };

/**
 * Sign a message (EIP-191) or EIP-712 typed data (JSON) with the selected account, after a
 * confirmation dialog that shows exactly what is signed.
 * @example <SignSection address="0xabc.." />
 */
export function SignSection({ address }: { address: string }) {
  const id = useId();
  const [message, setMessage] = useState('');
  const [typedJson, setTypedJson] = useState('');
  const [jsonError, setJsonError] = useState<string>();
  const [pending, setPending] = useState<Pending>();
  const signMessage = useKitMutation((c) => signMessageMutationOptions(c));
  const signTyped = useKitMutation((c) => signTypedDataMutationOptions(c));
  const busy = signMessage.isPending || signTyped.isPending;
  const signature = pending ? undefined : (signMessage.data ?? signTyped.data);

  const askTyped = () => {
    try {
      const typedData: unknown = JSON.parse(typedJson);
      setJsonError(undefined);
      setPending({ kind: 'typed', typedData, shown: JSON.stringify(typedData, null, 2) });
    } catch {
      setJsonError('The typed data is not valid JSON.');
    }
  };
  const confirm = () => {
    if (!pending) return;
    const done = { onSettled: () => setPending(undefined) };
    signMessage.reset();
    signTyped.reset();
    if (pending.kind === 'message') signMessage.mutate({ address, message: pending.message }, done);
    else signTyped.mutate({ address, typedData: pending.typedData }, done);
  };

  return (
    <section className="wk-stack" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`} className="wk-label">
        Sign with <span className="wk-code">{address}</span>
      </h3>
      <label className="wk-label" htmlFor={`${id}-msg`}>
        Message
      </label>
      <textarea id={`${id}-msg`} className="wk-input" rows={2} value={message} onChange={(e) => setMessage(e.currentTarget.value)} />
      <button type="button" className="wk-button" disabled={busy || message === ''} onClick={() => setPending({ kind: 'message', message })}>
        Sign message
      </button>
      <label className="wk-label" htmlFor={`${id}-typed`}>
        Typed data (EIP-712 JSON)
      </label>
      <textarea
        id={`${id}-typed`}
        className="wk-input"
        rows={4}
        value={typedJson}
        onChange={(e) => setTypedJson(e.currentTarget.value)}
        aria-invalid={jsonError ? true : undefined}
        aria-describedby={jsonError ? `${id}-json-error` : undefined}
      />
      <ErrorText error={jsonError} id={`${id}-json-error`} />
      <button type="button" className="wk-button" disabled={busy || typedJson === ''} onClick={askTyped}>
        Sign typed data
      </button>
      <ErrorText error={signMessage.error ?? signTyped.error} />
      {signature && (
        <div className="wk-stack">
          <span className="wk-label" id={`${id}-sig`}>
            Signature
          </span>
          <output className="wk-code" aria-labelledby={`${id}-sig`} data-testid="wk-signature">
            {signature}
          </output>
        </div>
      )}
      <ConfirmDialog
        open={pending !== undefined}
        title={pending?.kind === 'typed' ? 'Sign this typed data?' : 'Sign this message?'}
        description={`Signing with ${address}. Check that this is what you mean to sign.`}
        content={pending?.kind === 'typed' ? pending.shown : pending?.message}
        confirmLabel="Sign"
        busy={busy}
        onConfirm={confirm}
        onCancel={() => setPending(undefined)}
      />
    </section>
  );
}
