/** Public exports of the account area (re-exported by the package index). */
export { SecurityScreen } from './SecurityScreen.js';
