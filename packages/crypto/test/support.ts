import { CryptoError } from '../src/index';

/** The CryptoError code `fn` throws, undefined when it returns, or a marker for any other error. */
export function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof CryptoError ? e.code : `not a CryptoError: ${String(e)}`;
  }
  return undefined;
}
