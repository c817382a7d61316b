// What Ethereum signing hashes and encodes (EIP-191, EIP-712, RLP transactions) from
// @walletkit/crypto, in a module of its own so that a bundler puts it in a chunk loaded on the
// first signature (on-demand.ts).
export { hashPersonalMessage, hashTypedData, serializeEthereumTransaction } from '@walletkit/crypto';
