import type { ChainConfig } from '@walletkit/client';
import type { TypedData } from '@walletkit/crypto';
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
  if (fields.length === 0) return <p className="wk-hint">(empty)</p>;
  return (
    <dl className="wk-fields" aria-label={label}>
      {fields.map((f, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a list drawn once per request (a new request remounts), never reordered; its items have no identity and may repeat
        <div key={`${i}-${f.name}`}>
          <dt>
            {f.name} <span className="wk-type">{f.type}</span>
          </dt>
          <dd className={f.kind === 'value' ? 'wk-mono' : undefined}>
            {f.kind === 'value' ? f.value : <TypedFields fields={f.kind === 'struct' ? f.fields : f.items} />}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A recognised permit: one sentence per token, and the unlimited warning where it applies. */
function PermitSummary({ permit }: { permit: Permit }) {
  return (
    <div className="wk-stack" data-testid="wk-confirm-permit">
      <SectionTitle>
        {permit.standard === 'Permit2' ? 'Permit2 token permit' : `Token permit (${permit.standard === 'DAI' ? 'DAI-style' : 'EIP-2612'})`}
      </SectionTitle>
      {permit.allowances.map((a, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a list drawn once per request (a new request remounts), never reordered; its items have no identity and may repeat
        <p key={i} className="wk-permit" data-testid="wk-confirm-permit-sentence">
          {permitSentence(permit.spender, a)}
        </p>
      ))}
      {permit.allowances.some((a) => a.unlimited) && (
        <Warning title="Unlimited approval.">
          {permit.spender} will be able to spend all of this token in your account without asking again. Signing needs no transaction and costs nothing, which
          is why scams ask for it: sign only for an app you trust.
        </Warning>
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
  const view = describeTypedData(typedData);
  const permit = recognizePermit(typedData);
  // The domain's chain id, named when the kit knows the chain.
  const domain = view.domain.map((f) =>
    f.name === 'chainId' && f.kind === 'value' && /^\d{1,15}$/.test(f.value) ? { ...f, value: chainLabel(Number(f.value), chains) } : f,
  );
  return (
    <>
      {permit && <PermitSummary permit={permit} />}
      <SectionTitle>Domain</SectionTitle>
      <TypedFields fields={domain} label="Domain" />
      <Fields rows={[{ label: 'Primary type', value: view.primaryType, mono: true, testId: 'wk-confirm-primary-type' }]} />
      <SectionTitle>Message</SectionTitle>
      <TypedFields fields={view.message} label="Message" />
    </>
  );
}
