/** Public exports of the account area (re-exported by the package index). */
export { SecurityScreen } from './LazySecurityScreen.js';
export {
  useAddPasskey,
  useLinkOAuth,
  useRemovePasskey,
  useRevokeSession,
  useStartContactVerification,
  useUnlinkContact,
  useUnlinkOAuth,
  useUser,
  useVerifyContact,
} from './hooks.js';
export type { WalletKitUser } from '../provider/useWalletKit.js';
