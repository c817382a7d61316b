// The phrase check lives with the secret frame that uses it (@walletkit/client); re-exported here.
export { MNEMONIC_WORD_COUNTS, normalizeMnemonic } from '@walletkit/client';
