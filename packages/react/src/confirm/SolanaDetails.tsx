import { Fields, SectionTitle, Warning } from './parts.js';
import { summarizeSolanaTransaction } from './solana.js';

/**
 * A Solana transaction in short: size, version, signers, and what each instruction calls
 * (System transfers decoded into SOL and recipient).
 * @example <SolanaDetails transaction={bytes} />
 */
export function SolanaDetails({ transaction }: { transaction: Uint8Array }) {
  const view = summarizeSolanaTransaction(transaction);
  const instructions = view.instructions ?? [];
  return (
    <>
      <Fields
        label="Solana transaction"
        rows={[
          { label: 'Network', value: 'Solana' },
          { label: 'Size', value: `${view.byteLength} bytes`, testId: 'wk-confirm-data-size' },
          ...(view.version !== undefined ? [{ label: 'Version', value: view.version === 'legacy' ? 'legacy' : 'v0' }] : []),
          ...(view.signers !== undefined ? [{ label: 'Signers', value: String(view.signers) }] : []),
        ]}
      />
      {view.instructions === undefined ? (
        <Warning title="This transaction could not be read.">Sign it only if you trust this app completely.</Warning>
      ) : (
        <>
          <SectionTitle>Instructions</SectionTitle>
          <ol className="wk-instructions" data-testid="wk-confirm-instructions">
            {instructions.map((ix, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a list drawn once per request (a new request remounts), never reordered; its items have no identity and may repeat
              <li key={i} className="wk-mono">
                {ix.transfer
                  ? `Transfer ${ix.transfer.sol} SOL to ${ix.transfer.to ?? 'an address from a lookup table'}`
                  : ix.programName
                    ? `${ix.programName} (${ix.program})`
                    : `Program ${ix.program ?? 'from an address lookup table'}`}
              </li>
            ))}
          </ol>
        </>
      )}
    </>
  );
}
