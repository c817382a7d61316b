import { useEffect, useId, useRef, useState } from 'react';
import type { WalletKitConfig } from '../client-contract.js';
import { OtpInput } from '../components/OtpInput.js';
import { errorCodeOf } from '../errors.js';
import { useI18n } from '../i18n/context.js';
import { useKitMutation } from '../provider/hooks.js';
import { completeOtpMutationOptions, emailOtpMutationOptions, smsOtpMutationOptions } from '../queries.js';
import type { OtpSent } from './ContactForm.js';
import { ErrorText } from './ErrorText.js';
import { DEFAULT_OTP_ATTEMPTS } from './flow.js';
import { Spinner } from './icons.js';
import { richText } from './rich-text.js';

/** Props of {@link OtpStep}. */
export interface OtpStepProps {
  sent: OtpSent;
  config: Pick<WalletKitConfig, 'otpLength' | 'otpAlphanumeric'>;
  /** Wrong codes the server accepts per code (default {@link DEFAULT_OTP_ATTEMPTS}). */
  attempts?: number | undefined;
  onDone: () => void;
  onBack: () => void;
}

/**
 * Enter the code sent by the contact form. A wrong code says how many tries are left ("Wrong
 * code. 2 tries left."); after the last one the code is used up (the server would refuse the
 * next try with ERR_OTP_ATTEMPTS_EXCEEDED): the cells lock and "Send a new code" is offered.
 * Resend (after its countdown) or a new code issues a new otpId and starts the count again.
 * @example <OtpStep sent={sent} config={config} onDone={close} onBack={back} />
 */
export function OtpStep({ sent, config, attempts = DEFAULT_OTP_ATTEMPTS, onDone, onBack }: OtpStepProps) {
  const { t, plural } = useI18n();
  const errorId = useId();
  const [otpId, setOtpId] = useState(sent.otpId);
  const [code, setCode] = useState('');
  const [wrong, setWrong] = useState(0);
  const [refused, setRefused] = useState(false);
  const [renewed, setRenewed] = useState(false);
  const complete = useKitMutation((c) => completeOtpMutationOptions(c));
  const resend = useKitMutation((c) => (sent.kind === 'email' ? emailOtpMutationOptions(c) : smsOtpMutationOptions(c)));
  const length = Number.parseInt(config.otpLength, 10) || 6;
  const left = Math.max(0, attempts - wrong);
  const usedUp = refused || left === 0;
  // The cells lock when the code is used up: focus goes to the way on.
  const sendNewButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (usedUp) sendNewButton.current?.focus();
  }, [usedUp]);

  const check = (value: string) =>
    complete.mutate(
      { otpId, code: value },
      {
        onSuccess: onDone,
        onError: (error) => {
          setCode('');
          const c = errorCodeOf(error);
          if (c === 'ERR_OTP_INVALID') setWrong((n) => n + 1);
          else if (c === 'ERR_OTP_ATTEMPTS_EXCEEDED') setRefused(true);
        },
      },
    );
  const sendNew = () =>
    resend.mutate(sent.contact, {
      onSuccess: (r) => {
        setOtpId(r.otpId);
        setCode('');
        setWrong(0);
        setRefused(false);
        setRenewed(true);
        complete.reset();
      },
    });

  const wrongCode = errorCodeOf(complete.error) === 'ERR_OTP_INVALID';
  const message = usedUp ? t('auth.codeUsedUp') : wrongCode ? plural('auth.wrongCode', left) : (complete.error ?? resend.error);
  return (
    <div className="wk-stack">
      <p className="wk-hint">{richText(t('auth.codeSentTo'), { contact: <strong dir="ltr">{sent.contact}</strong> })}</p>
      <OtpInput
        // A new code is a new input: empty cells, the resend countdown from the start.
        key={otpId}
        length={length}
        alphanumeric={config.otpAlphanumeric}
        value={code}
        onChange={setCode}
        disabled={usedUp}
        busy={complete.isPending}
        focusOnMount
        errorId={message ? errorId : undefined}
        onComplete={check}
        onResend={sendNew}
      />
      <ErrorText error={message} id={errorId} />
      {usedUp && (
        <button
          ref={sendNewButton}
          type="button"
          className="wk-button"
          data-variant="primary"
          {...(resend.isPending ? { 'aria-busy': true, 'aria-disabled': true } : {})}
          onClick={() => resend.isPending || sendNew()}
        >
          {resend.isPending && <Spinner />}
          {t('auth.sendNewCode')}
        </button>
      )}
      {complete.isPending && (
        <p className="wk-hint" role="status">
          {t('auth.checkingCode')}
        </p>
      )}
      {renewed && !message && !complete.isPending && (
        <p className="wk-hint" role="status">
          {t('auth.newCodeSent')}
        </p>
      )}
      <button type="button" className="wk-button" data-variant="ghost" onClick={onBack}>
        {t('auth.useAnotherMethod')}
      </button>
    </div>
  );
}
