import { useI18n } from '../i18n/context.js';
import { Fields, SectionTitle, Warning } from './parts.js';
import { summarizeSolanaTransaction } from './solana.js';

/**
 * A Solana transaction in short: size, version, signers, and what each instruction calls
 * (System transfers decoded into SOL and recipient).
 * @example <SolanaDetails transaction={bytes} />
 */
export function SolanaDetails({ transaction }: { transaction: Uint8Array }) {
  const { t, plural, number, amount } = useI18n();
  const view = summarizeSolanaTransaction(transaction);
  const instructions = view.instructions ?? [];
  return (
    <>
      <Fields
        label={t('confirm.solanaTransaction')}
        rows={[
          { label: t('confirm.network'), value: 'Solana' },
          { label: t('confirm.size'), value: plural('confirm.bytes', view.byteLength), testId: 'wk-confirm-data-size' },
          ...(view.version !== undefined ? [{ label: t('confirm.version'), value: view.version === 'legacy' ? t('confirm.versionLegacy') : 'v0' }] : []),
          ...(view.signers !== undefined ? [{ label: t('confirm.signers'), value: number(view.signers) }] : []),
        ]}
      />
      {view.instructions === undefined ? (
        <Warning title={t('confirm.solanaUnreadableTitle')}>{t('confirm.solanaUnreadableHint')}</Warning>
      ) : (
        <>
          <SectionTitle>{t('confirm.instructions')}</SectionTitle>
          <ol className="wk-instructions" data-testid="wk-confirm-instructions">
            {instructions.map((ix, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a list drawn once per request (a new request remounts), never reordered; its items have no identity and may repeat
              <li key={i} className="wk-mono">
                {ix.transfer
                  ? t('confirm.solanaTransfer', {
                      amount: amount(ix.transfer.lamports, { decimals: 9, symbol: 'SOL' }),
                      to: ix.transfer.to ?? t('confirm.solanaLookupAddress'),
                    })
                  : ix.programName
                    ? `${ix.programName} (${ix.program})`
                    : ix.program
                      ? t('confirm.solanaProgram', { program: ix.program })
                      : t('confirm.solanaLookupProgram')}
              </li>
            ))}
          </ol>
        </>
      )}
    </>
  );
}
