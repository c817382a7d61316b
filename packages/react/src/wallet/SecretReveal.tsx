import { useState } from 'react';
import type { UseMutationResult } from '@tanstack/react-query';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { ErrorText } from '../auth/ErrorText.js';

/** Props of {@link SecretReveal}: the export mutation and the words around it. */
export interface SecretRevealProps {
  /** The mutation that decrypts the secret in this browser, and what to call it with. */
  exporter: UseMutationResult<string, Error, string>;
  input: string;
  /** The button that asks (and its accessible name when it differs). */
  buttonLabel: string;
  buttonAriaLabel?: string | undefined;
  /** The confirmation dialog. */
  title: string;
  confirmLabel: string;
  content?: string | undefined;
  /** Shown above the secret, and the secret's accessible name and test id. */
  warning: string;
  secretLabel: string;
  testId: string;
  hideAriaLabel?: string | undefined;
  /** Offer a copy button. */
  copyable?: boolean | undefined;
}

/**
 * A secret shown only after confirmation, decrypted by the client in this browser (never sent
 * anywhere), with a hide button that forgets it (the mutation is reset). Used for a wallet's
 * recovery phrase and an account's private key.
 * @example <SecretReveal exporter={exporter} input={walletId} buttonLabel="Export Main" title="Show the recovery phrase?" confirmLabel="Show recovery phrase" warning="…" secretLabel="Recovery phrase" testId="wk-mnemonic" />
 */
export function SecretReveal(props: SecretRevealProps) {
  const { exporter } = props;
  const [asking, setAsking] = useState(false);
  const [copied, setCopied] = useState(false);

  if (exporter.data) {
    const secret = exporter.data;
    return (
      <div className="wk-stack">
        <p className="wk-hint">{props.warning}</p>
        <pre className="wk-code" data-testid={props.testId} tabIndex={0} aria-label={props.secretLabel}>
          {secret}
        </pre>
        <div className="wk-row">
          {props.copyable && (
            <button type="button" className="wk-button" onClick={() => navigator.clipboard?.writeText(secret).then(() => setCopied(true), () => setCopied(false))}>
              {copied ? 'Copied' : 'Copy'}
            </button>
          )}
          <button type="button" className="wk-button" aria-label={props.hideAriaLabel} onClick={() => exporter.reset()}>
            Hide
          </button>
        </div>
      </div>
    );
  }
  return (
    <>
      <button type="button" className="wk-button" aria-label={props.buttonAriaLabel} onClick={() => setAsking(true)}>
        {props.buttonLabel}
      </button>
      <ErrorText error={exporter.error} />
      <ConfirmDialog
        open={asking}
        title={props.title}
        description="It is decrypted in this browser and never sent anywhere. Make sure no one can see your screen."
        content={props.content}
        confirmLabel={props.confirmLabel}
        busy={exporter.isPending}
        onCancel={() => setAsking(false)}
        onConfirm={() => exporter.mutate(props.input, { onSettled: () => setAsking(false) })}
      />
    </>
  );
}
