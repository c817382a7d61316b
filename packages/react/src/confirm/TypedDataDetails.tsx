import type { ChainConfig } from '@walletkit/client';
import type { TypedData } from '@walletkit/crypto';
import { useI18n } from '../i18n/context.js';
import { chainLabel } from './chain.js';
import { Fields, SectionTitle, Warning } from './parts.js';
import { permitSentence, recognizePermit, type Permit } from './permits.js';
import { describeTypedData, type TypedField } from './typed-data.js';

/**
 * Typed-data fields as nested definition lists: each field's name and type, then its value or
 * its own fields. Arrays list their items (#1, #2, ...).
 * @example <TypedFields fields={view.message} label="Message" />
 */
export function TypedFields({ fields, label }: { fields: TypedField[]; label?: string }) {
  const { t } = useI18n();
  if (fields.length === 0) return <p className="wk-hint">{t('confirm.empty')}</p>;
  return (
    <dl className="wk-fields" aria-label={label}>
      {fields.map((f, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a list drawn once per request (a new request remounts), never reordered; its items have no identity and may repeat
        <div key={`${i}-${f.name}`}>
          <dt>
            {f.name} <span className="wk-type">{f.type}</span>
          </dt>
          <dd className={f.kind === 'value' ? 'wk-mono' : undefined}>
            {f.kind === 'value' ? f.missing ? t('confirm.missing') : f.value : <TypedFields fields={f.kind === 'struct' ? f.fields : f.items} />}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A recognised permit: one sentence per token, and the unlimited warning where it applies. */
function PermitSummary({ permit }: { permit: Permit }) {
  const translator = useI18n();
  const { t } = translator;
  return (
    <div className="wk-stack" data-testid="wk-confirm-permit">
      <SectionTitle>
        {permit.standard === 'Permit2' ? t('confirm.permit2Title') : permit.standard === 'DAI' ? t('confirm.permitDaiTitle') : t('confirm.permitEip2612Title')}
      </SectionTitle>
      {permit.allowances.map((a, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a list drawn once per request (a new request remounts), never reordered; its items have no identity and may repeat
        <p key={i} className="wk-permit" data-testid="wk-confirm-permit-sentence">
          {permitSentence(permit.spender, a, translator)}
        </p>
      ))}
      {permit.allowances.some((a) => a.unlimited) && (
        <Warning title={t('confirm.unlimitedTitle')}>{t('confirm.unlimitedPermitWarning', { spender: permit.spender })}</Warning>
      )}
    </div>
  );
}

/**
 * EIP-712 typed data as a structured view: a recognised permit first (who may spend what,
 * until when), then the domain's fields, the primary type, and the message's fields.
 * @example <TypedDataDetails typedData={request.typedData} chains={chains} />
 */
export function TypedDataDetails({ typedData, chains }: { typedData: TypedData; chains: readonly ChainConfig[] }) {
  const translator = useI18n();
  const { t } = translator;
  const view = describeTypedData(typedData);
  const permit = recognizePermit(typedData);
  // The domain's chain id, named when the kit knows the chain.
  const domain = view.domain.map((f) =>
    f.name === 'chainId' && f.kind === 'value' && /^\d{1,15}$/.test(f.value) ? { ...f, value: chainLabel(Number(f.value), chains, translator) } : f,
  );
  return (
    <>
      {permit && <PermitSummary permit={permit} />}
      <SectionTitle>{t('confirm.domain')}</SectionTitle>
      <TypedFields fields={domain} label={t('confirm.domain')} />
      <Fields rows={[{ label: t('confirm.primaryType'), value: view.primaryType, mono: true, testId: 'wk-confirm-primary-type' }]} />
      <SectionTitle>{t('confirm.message')}</SectionTitle>
      <TypedFields fields={view.message} label={t('confirm.message')} />
    </>
  );
}
