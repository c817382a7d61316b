import { useRef, type KeyboardEvent } from 'react';
import { useI18n } from '../i18n/context.js';
import type { WalletScreen } from './screens.js';

/** Props of {@link ScreenTabs}. */
export interface ScreenTabsProps {
  /** Prefix of the tabs' and panels' ids. */
  id: string;
  screens: readonly WalletScreen[];
  current: WalletScreen;
  onChange: (screen: WalletScreen) => void;
}

/** The id of a screen's tab and of its panel. */
export const tabId = (id: string, screen: WalletScreen) => `${id}-tab-${screen}`;
export const panelId = (id: string, screen: WalletScreen) => `${id}-panel-${screen}`;

/**
 * The panel's navigation, the WAI-ARIA tabs pattern: one tab stop (the current tab), arrow
 * keys move between tabs and open them (mirrored right to left), Home and End go to the ends;
 * each tab controls its panel.
 * @example <ScreenTabs id={id} screens={['accounts', 'send']} current="accounts" onChange={setScreen} />
 */
export function ScreenTabs({ id, screens, current, onChange }: ScreenTabsProps) {
  const { t, dir } = useI18n();
  const list = useRef<HTMLDivElement>(null);
  const move = (e: KeyboardEvent) => {
    const at = screens.indexOf(current);
    const forward = dir === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
    const backward = dir === 'rtl' ? 'ArrowRight' : 'ArrowLeft';
    const next =
      e.key === forward
        ? (at + 1) % screens.length
        : e.key === backward
          ? (at - 1 + screens.length) % screens.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? screens.length - 1
              : undefined;
    if (next === undefined) return;
    e.preventDefault();
    const screen = screens[next]!;
    onChange(screen);
    list.current?.ownerDocument.getElementById(tabId(id, screen))?.focus();
  };
  return (
    <div ref={list} className="wk-tabs" role="tablist" aria-label={t('wallet.screens')} onKeyDown={move}>
      {screens.map((screen) => (
        <button
          key={screen}
          type="button"
          role="tab"
          id={tabId(id, screen)}
          className="wk-tab"
          aria-selected={screen === current}
          aria-controls={panelId(id, screen)}
          tabIndex={screen === current ? 0 : -1}
          onClick={() => onChange(screen)}
        >
          {t(`wallet.screen.${screen}`)}
        </button>
      ))}
    </div>
  );
}
