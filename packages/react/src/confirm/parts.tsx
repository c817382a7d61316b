import type { ReactNode } from 'react';

/** One labelled value of a confirmation. `mono` for addresses, hashes and numbers people compare. */
export interface FieldRow {
  label: string;
  value: ReactNode;
  mono?: boolean | undefined;
  testId?: string | undefined;
}

/**
 * Labelled values as a definition list (screen readers announce the pairs). Addresses are
 * shown whole, never shortened: a shortened address is what address-poisoning attacks imitate.
 * @example <Fields rows={[{ label: 'To', value: to, mono: true }]} />
 */
export function Fields({ rows, label }: { rows: FieldRow[]; label?: string | undefined }) {
  return (
    <dl className="wk-fields" aria-label={label}>
      {rows.map((r) => (
        <div key={r.label}>
          <dt>{r.label}</dt>
          <dd className={r.mono ? 'wk-mono' : undefined} data-testid={r.testId}>
            {r.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A warning people cannot miss: the danger color, a bold lead and the consequence.
 * @example <Warning title="Unlimited approval.">This lets … spend all your tokens.</Warning>
 */
export function Warning({ title, children }: { title: string; children: ReactNode }) {
  return (
    <p className="wk-warning" data-testid="wk-confirm-warning">
      <strong>{title}</strong> {children}
    </p>
  );
}

/**
 * A section heading inside the dialog (under its h2 title).
 * @example <SectionTitle>Message</SectionTitle>
 */
export function SectionTitle({ children }: { children: ReactNode }) {
  return <h3 className="wk-label wk-section-title">{children}</h3>;
}
