import { createContext, useContext, useInsertionEffect } from 'react';
import { injectWalletKitStyles } from './styles.js';

/** `system` follows prefers-color-scheme; `light` and `dark` force one. */
export type WalletKitTheme = 'light' | 'dark' | 'system';

export const ThemeContext = createContext<WalletKitTheme>('system');

/** The CSP nonce the kit's injected `<style>` carries (a host page whose `style-src` has no 'unsafe-inline'). */
export const StyleNonceContext = createContext<string | undefined>(undefined);

/**
 * Props that make an element a kit root: the `wk-root` class (plus `className`) and the
 * `data-theme` of the nearest provider. Also injects the stylesheet once.
 * @example const root = useKitRoot('wk-card'); return <section {...root}>..</section>;
 */
export function useKitRoot(className?: string): { className: string; 'data-theme'?: 'light' | 'dark' } {
  const theme = useContext(ThemeContext);
  const nonce = useContext(StyleNonceContext);
  useInsertionEffect(() => injectWalletKitStyles(undefined, nonce), [nonce]);
  const cls = className ? `wk-root ${className}` : 'wk-root';
  return theme === 'system' ? { className: cls } : { className: cls, 'data-theme': theme };
}
