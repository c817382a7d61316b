// Size probe (b): every export of the kit (client included), as a library would ship it.
export * from '@walletkit/react';
export * from '@walletkit/client';
