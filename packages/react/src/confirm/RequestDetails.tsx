import type { ChainConfig, SignatureRequest } from '@walletkit/client';
import { AuthorizationDetails } from './AuthorizationDetails.js';
import { MessageDetails } from './MessageDetails.js';
import { SolanaDetails } from './SolanaDetails.js';
import { TransactionDetails } from './TransactionDetails.js';
import { TypedDataDetails } from './TypedDataDetails.js';

/**
 * What a request does, by kind: the part of the confirmation that decodes.
 * @example <RequestDetails request={request} chains={chains} />
 */
export function RequestDetails({ request, chains }: { request: SignatureRequest; chains: readonly ChainConfig[] }) {
  switch (request.kind) {
    case 'message':
      return <MessageDetails message={request.message} />;
    case 'typedData':
      return <TypedDataDetails typedData={request.typedData} chains={chains} />;
    case 'transaction':
      return <TransactionDetails request={request} chains={chains} />;
    case 'authorization':
      return <AuthorizationDetails authorization={request.authorization} chains={chains} />;
    case 'solanaTransaction':
      return <SolanaDetails transaction={request.transaction} />;
  }
}
