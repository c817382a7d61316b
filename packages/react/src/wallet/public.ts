/** Public exports of the wallet area added by issue 15 (re-exported by the package index). */
export { WALLET_SCREENS, type WalletScreen } from './screens.js';
export type { WalletPanelProps } from './WalletPanel.js';
