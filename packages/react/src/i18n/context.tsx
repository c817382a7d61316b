import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { createTranslator, loadLocale, type Locale, type MessageOverrides, type Messages, resolveLocale, type Translator } from './catalog.js';

const english = createTranslator('en');

export const I18nContext = createContext<Translator>(english);

/**
 * The kit's translator: the provider's locale and overrides, or English outside a provider.
 * @example const { t } = useI18n(); <button>{t('common.close')}</button>
 */
export function useI18n(): Translator {
  return useContext(I18nContext);
}

/** Props of {@link I18nProvider}. */
export interface I18nProviderProps {
  /** A shipped locale, a BCP 47 tag (`de-AT`), or `auto` (the browser's languages); default English. */
  locale?: string | undefined;
  /** Per-key replacements of the active locale's messages. */
  messages?: MessageOverrides | undefined;
  children?: ReactNode | undefined;
}

/**
 * Gives the kit's components their language. A locale other than English loads its chunk once;
 * meanwhile the kit speaks English (and any key a catalog lacks stays English).
 * @example <I18nProvider locale="de" messages={{ 'auth.title': 'Anmelden bei {app}' }}>…</I18nProvider>
 */
export function I18nProvider({ locale, messages, children }: I18nProviderProps) {
  const resolved: Locale = resolveLocale(locale);
  const [loaded, setLoaded] = useState<{ locale: Locale; messages: Messages }>();
  useEffect(() => {
    if (resolved === 'en') return undefined;
    let live = true;
    loadLocale(resolved).then(
      (m) => live && setLoaded({ locale: resolved, messages: m }),
      () => undefined, // a chunk that fails to load leaves the kit in English
    );
    return () => {
      live = false;
    };
  }, [resolved]);
  const translator = useMemo(() => {
    if (resolved !== 'en' && loaded?.locale === resolved) return createTranslator(resolved, loaded.messages, messages);
    // English (words, numbers and direction) until the locale's chunk is there.
    return messages ? createTranslator('en', undefined, messages) : english;
  }, [resolved, loaded, messages]);
  return <I18nContext.Provider value={translator}>{children}</I18nContext.Provider>;
}
