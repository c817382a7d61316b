import 'server-only';

/** The kit's settings from the server's environment (see .env.example), read per request. */
export function walletKitConfig() {
  const read = (name: string): string => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set (see .env.example)`);
    return value;
  };
  const url = read('WALLETKIT_URL');
  return {
    proxyUrl: url,
    apiUrl: url,
    organizationId: read('WALLETKIT_ORGANIZATION_ID'),
    configId: read('WALLETKIT_CONFIG_ID'),
    enclavePublicKey: read('WALLETKIT_ENCLAVE_PUBLIC_KEY'),
  };
}

export type WalletKitSettings = ReturnType<typeof walletKitConfig>;
