/**
 * @walletkit/protocol: the wire contract of walletkit, no I/O. Envelope and activity record,
 * one descriptor per operation and query, error codes and their HTTP statuses.
 */
export * from './errors.js';
export * from './descriptor.js';
export * from './envelope.js';
export * from './enums.js';
export * from './fields.js';
export * from './params.js';
export * from './records.js';
export * from './registry.js';
export * from './queries.js';
export * from './operations/auth.js';
export * from './operations/auth-proxy.js';
export * from './operations/consensus.js';
export * from './operations/keys.js';
export * from './operations/oauth2.js';
export * from './operations/organization.js';
export * from './operations/policies.js';
export * from './operations/signing.js';
export * from './operations/smart-contracts.js';
export * from './operations/tags.js';
export * from './operations/tvc.js';
export * from './operations/users.js';
export * from './operations/wallets.js';
export * from './proxy.js';
export * from './wire.js';
