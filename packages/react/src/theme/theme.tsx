import { createContext, useContext, useInsertionEffect } from 'react';
import { useI18n } from '../i18n/context.js';
import { injectWalletKitStyles } from './styles.js';

/** `system` follows prefers-color-scheme; `light` and `dark` force one. */
export type WalletKitTheme = 'light' | 'dark' | 'system';

export const ThemeContext = createContext<WalletKitTheme>('system');

/** The CSP nonce the kit's injected `<style>` carries (a host page whose `style-src` has no 'unsafe-inline'). */
export const StyleNonceContext = createContext<string | undefined>(undefined);

/**
 * Props that make an element a kit root: the `wk-root` class (plus `className`), the
 * `data-theme` of the nearest provider, and the kit's `lang` and `dir`. Also injects the
 * stylesheet once.
 * @example const root = useKitRoot('wk-card'); return <section {...root}>..</section>;
 */
export function useKitRoot(className?: string): { className: string; 'data-theme'?: 'light' | 'dark'; lang: string; dir: 'ltr' | 'rtl' } {
  const theme = useContext(ThemeContext);
  const nonce = useContext(StyleNonceContext);
  const { locale, dir } = useI18n();
  useInsertionEffect(() => injectWalletKitStyles(undefined, nonce), [nonce]);
  const cls = className ? `wk-root ${className}` : 'wk-root';
  // The kit's own language and direction (Arabic mirrors the layout), whatever the page's.
  return theme === 'system' ? { className: cls, lang: locale, dir } : { className: cls, 'data-theme': theme, lang: locale, dir };
}
