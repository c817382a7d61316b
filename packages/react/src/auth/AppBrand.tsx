import { useState } from 'react';
import { useI18n } from '../i18n/context.js';
import type { LegalLinks } from '../provider/options.js';
import { richText } from './rich-text.js';

/**
 * The app's logo and name above the modal's heading. The logo's `alt` is the app's name (the
 * name beside it is then hidden from screen readers: said once); no logo URL, or one that fails
 * to load, leaves no image, broken or empty.
 * @example <AppBrand name="Acme" logoUrl="https://acme.example/logo.svg" />
 */
export function AppBrand({ name, logoUrl }: { name?: string | undefined; logoUrl?: string | undefined }) {
  const [failed, setFailed] = useState<string>();
  const logo = logoUrl && failed !== logoUrl ? logoUrl : undefined;
  return (
    <div className="wk-brand">
      {logo && <img className="wk-brand-logo" src={logo} alt={name ?? ''} onError={() => setFailed(logo)} />}
      {name && (
        <span className="wk-brand-name" aria-hidden={logo && name ? true : undefined}>
          {name}
        </span>
      )}
    </div>
  );
}

/**
 * "By continuing you agree to the Terms and the Privacy Policy", with the links the provider's
 * `legal` gives (each opens a new tab, without the opener); nothing when neither is set.
 * @example <LegalFooter legal={{ termsUrl: '/terms', privacyUrl: '/privacy' }} />
 */
export function LegalFooter({ legal }: { legal?: LegalLinks | undefined }) {
  const { t } = useI18n();
  const terms = legal?.termsUrl;
  const privacy = legal?.privacyUrl;
  if (!terms && !privacy) return null;
  const link = (href: string, label: string) => (
    <a className="wk-link" href={href} target="_blank" rel="noopener noreferrer">
      {label}
      <span className="wk-visually-hidden"> {t('auth.newTab')}</span>
    </a>
  );
  const template = terms && privacy ? t('auth.legalBoth') : terms ? t('auth.legalTerms') : t('auth.legalPrivacy');
  return (
    <p className="wk-legal">
      {richText(template, {
        ...(terms ? { terms: link(terms, t('auth.terms')) } : {}),
        ...(privacy ? { privacy: link(privacy, t('auth.privacy')) } : {}),
      })}
    </p>
  );
}
