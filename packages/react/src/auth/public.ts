/** Public exports of the auth area added by issue 15 (re-exported by the package index). */
export { DEFAULT_OTP_ATTEMPTS } from './flow.js';
export { ErrorText, type ErrorTextProps } from './ErrorText.js';
