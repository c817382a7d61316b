/** Parts of the Security screen: a titled section and a list row. */
import { type ReactNode, useId } from 'react';

/** A titled part of the screen. */
export function AccountSection({ title, hint, children }: { title: string; hint: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="wk-stack wk-account-section" aria-labelledby={id}>
      <h3 id={id} className="wk-account-heading">
        {title}
      </h3>
      <p className="wk-hint">{hint}</p>
      {children}
    </section>
  );
}

/** One row of a list: an icon, what it is, details, actions. */
export function Item({ icon, title, details, children }: { icon?: ReactNode; title: string; details?: ReactNode; children?: ReactNode }) {
  return (
    <li className="wk-account-item">
      <div className="wk-account-item-main">
        {icon && <span className="wk-account-icon">{icon}</span>}
        <div className="wk-account-item-text">
          <p className="wk-account-item-title">{title}</p>
          {details}
        </div>
      </div>
      {children}
    </li>
  );
}
