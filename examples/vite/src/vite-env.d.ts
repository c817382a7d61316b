/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_WALLETKIT_URL: string;
  readonly VITE_WALLETKIT_ORGANIZATION_ID: string;
  readonly VITE_WALLETKIT_CONFIG_ID: string;
  readonly VITE_WALLETKIT_ENCLAVE_PUBLIC_KEY: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
