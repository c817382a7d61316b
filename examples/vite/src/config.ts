/** The kit's settings, from `.env.local` at build time (see `.env.example`). */
const env = import.meta.env;

export const walletKitConfig = {
  proxyUrl: env.VITE_WALLETKIT_URL,
  apiUrl: env.VITE_WALLETKIT_URL,
  organizationId: env.VITE_WALLETKIT_ORGANIZATION_ID,
  configId: env.VITE_WALLETKIT_CONFIG_ID,
  enclavePublicKey: env.VITE_WALLETKIT_ENCLAVE_PUBLIC_KEY,
};

/** The names of the settings this build lacks (the app says so instead of failing later). */
export const missingSettings = Object.entries({
  VITE_WALLETKIT_URL: env.VITE_WALLETKIT_URL,
  VITE_WALLETKIT_ORGANIZATION_ID: env.VITE_WALLETKIT_ORGANIZATION_ID,
  VITE_WALLETKIT_CONFIG_ID: env.VITE_WALLETKIT_CONFIG_ID,
  VITE_WALLETKIT_ENCLAVE_PUBLIC_KEY: env.VITE_WALLETKIT_ENCLAVE_PUBLIC_KEY,
})
  .filter(([, value]) => !value)
  .map(([name]) => name);

export const OAUTH_CALLBACK_PATH = '/oauth/callback';
