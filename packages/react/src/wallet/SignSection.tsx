import { useId, useState } from 'react';
import { ErrorText } from '../auth/ErrorText.js';
import { signMessageMutationOptions, signTypedDataMutationOptions } from '../queries.js';
import { useKitMutation } from '../provider/hooks.js';

/**
 * Sign a message (EIP-191) or EIP-712 typed data (JSON) with the selected account. The client
 * asks the kit's confirmation dialog first, as for every signature (not a dialog of its own:
 * one confirmation per signature, the same one a dApp's request gets).
 * @example <SignSection address="0xabc.." />
 */
export function SignSection({ address }: { address: string }) {
  const id = useId();
  const [message, setMessage] = useState('');
  const [typedJson, setTypedJson] = useState('');
  const [jsonError, setJsonError] = useState<string>();
  const signMessage = useKitMutation((c) => signMessageMutationOptions(c));
  const signTyped = useKitMutation((c) => signTypedDataMutationOptions(c));
  const busy = signMessage.isPending || signTyped.isPending;
  const signature = signMessage.data ?? signTyped.data;

  const sign = () => {
    signTyped.reset();
    signMessage.mutate({ address, message });
  };
  const signTypedJson = () => {
    let typedData: unknown;
    try {
      typedData = JSON.parse(typedJson);
    } catch {
      setJsonError('The typed data is not valid JSON.');
      return;
    }
    setJsonError(undefined);
    signMessage.reset();
    signTyped.mutate({ address, typedData });
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
      <button type="button" className="wk-button" disabled={busy || message === ''} onClick={sign}>
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
      <button type="button" className="wk-button" disabled={busy || typedJson === ''} onClick={signTypedJson}>
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
    </section>
  );
}
