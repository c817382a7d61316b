import { useId, useState } from 'react';
import type { WalletKitConfig } from '../client-contract.js';
import { OtpInput } from '../components/OtpInput.js';
import { completeOtpMutationOptions, emailOtpMutationOptions, smsOtpMutationOptions } from '../queries.js';
import { useKitMutation } from '../provider/hooks.js';
import type { OtpSent } from './ContactForm.js';
import { ErrorText } from './ErrorText.js';

/** Props of {@link OtpStep}. */
export interface OtpStepProps {
  sent: OtpSent;
  config: Pick<WalletKitConfig, 'otpLength' | 'otpAlphanumeric'>;
  onDone: () => void;
  onBack: () => void;
}

/**
 * Enter the code sent by the contact form; resend issues a new code (and a new otpId).
 * @example <OtpStep sent={sent} config={config} onDone={close} onBack={back} />
 */
export function OtpStep({ sent, config, onDone, onBack }: OtpStepProps) {
  const errorId = useId();
  const [otpId, setOtpId] = useState(sent.otpId);
  const [code, setCode] = useState('');
  const complete = useKitMutation((c) => completeOtpMutationOptions(c));
  const resend = useKitMutation((c) => (sent.kind === 'email' ? emailOtpMutationOptions(c) : smsOtpMutationOptions(c)));
  const length = Number.parseInt(config.otpLength, 10) || 6;
  const error = complete.error ?? resend.error;

  return (
    <div className="wk-stack">
      <p className="wk-hint">
        Enter the code sent to <strong>{sent.contact}</strong>.
      </p>
      <OtpInput
        length={length}
        alphanumeric={config.otpAlphanumeric}
        value={code}
        onChange={setCode}
        disabled={complete.isPending}
        errorId={error ? errorId : undefined}
        onComplete={(value) => complete.mutate({ otpId, code: value }, { onSuccess: onDone, onError: () => setCode('') })}
        onResend={() =>
          resend.mutate(sent.contact, {
            onSuccess: (r) => {
              setOtpId(r.otpId);
              setCode('');
              complete.reset();
            },
          })
        }
      />
      <ErrorText error={error} id={errorId} />
      {complete.isPending && (
        <p className="wk-hint" role="status">
          Checking the code…
        </p>
      )}
      <button type="button" className="wk-button" data-variant="ghost" onClick={onBack}>
        Use another method
      </button>
    </div>
  );
}
