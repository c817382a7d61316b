import { useIsMutating } from '@tanstack/react-query';
import { useKitQueryClient } from '../provider/context.js';

/**
 * The mutation key of every login step the modal runs (`[...LOGIN_MUTATION_KEY, method]`): one
 * running disables the others (a second popup or prompt on top of the first helps nobody).
 */
export const LOGIN_MUTATION_KEY = ['walletkit', 'login'] as const;

/**
 * Whether a login step of the modal is running (sending a code, a passkey prompt, a popup).
 * @example const running = useLoginRunning(); <button disabled={running}>
 */
export function useLoginRunning(): boolean {
  return useIsMutating({ mutationKey: LOGIN_MUTATION_KEY }, useKitQueryClient()) > 0;
}

/**
 * Wrong codes the proxy accepts for one code before it refuses that code: the server's
 * `otp.maxAttempts` default (packages/server/src/config.ts). `wallet_kit_config` does not carry
 * it (a server setting, not the proxy configuration's); `AuthModal`'s `otpAttempts` changes it.
 */
export const DEFAULT_OTP_ATTEMPTS = 3;

/** How long the success state shows before the modal closes, in milliseconds. */
export const SUCCESS_MS = 800;
