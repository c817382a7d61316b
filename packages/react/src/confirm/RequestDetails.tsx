import type { ChainConfig, SignatureRequest } from '@walletkit/client';
import { AuthorizationDetails } from './AuthorizationDetails';
import { MessageDetails } from './MessageDetails';
import { SolanaDetails } from './SolanaDetails';
import { TransactionDetails } from './TransactionDetails';
import { TypedDataDetails } from './TypedDataDetails';

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
