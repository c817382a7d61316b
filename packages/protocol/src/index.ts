/**
 * @walletkit/protocol: the wire contract of walletkit, no I/O. Envelope and activity record,
 * one descriptor per operation and query, error codes and their HTTP statuses.
 */
export * from './errors';
export * from './descriptor';
export * from './envelope';
export * from './enums';
export * from './fields';
export * from './params';
export * from './records';
export * from './registry';
export * from './queries';
export * from './operations/auth';
export * from './operations/auth-proxy';
export * from './operations/consensus';
export * from './operations/keys';
export * from './operations/oauth2';
export * from './operations/organization';
export * from './operations/policies';
export * from './operations/signing';
export * from './operations/smart-contracts';
export * from './operations/tags';
export * from './operations/tvc';
export * from './operations/users';
export * from './operations/wallets';
export * from './proxy';
export * from './wire';
