import { type AccountRemoval, canRemove, type UserProfile } from '@walletkit/client';
import { useState } from 'react';
import { ErrorText } from '../auth/ErrorText.js';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { useI18n } from '../i18n/context.js';

/** Props of {@link RemoveButton}. */
export interface RemoveButtonProps {
  /** The button's words ("Remove email", "Unlink Google"). */
  label: string;
  /** A fuller name for assistive technology, starting with `label` ("Log out the session since 3 May"). */
  ariaLabel?: string | undefined;
  /** What is removed, in the question and the notice ("your email", "Google"). */
  method: string;
  /** What it removes, to check that another way to sign in remains; absent for what is none (a session). */
  removal?: AccountRemoval | undefined;
  profile: UserProfile;
  /** The dialog's title and text (default: "Remove {method}?", "You will no longer be able to log in with it."). */
  question?: { title: string; body: string } | undefined;
  /** The confirm button's words (default "Remove"). */
  confirmLabel?: string | undefined;
  /** Runs the removal; resolves when done. */
  remove: () => Promise<unknown>;
  /** Called after it is done, with the notice to announce. */
  onRemoved: (notice: string) => void;
}

/**
 * A removal that asks first: the last way to sign in is refused at once with its reason (no
 * dialog, nothing sent; the server would refuse it too), anything else opens a confirmation
 * naming what goes, then runs. Failures show under the button (`role="alert"`).
 * @example <RemoveButton label="Remove email" method="ada@example.com" removal={{ kind: 'email' }} profile={profile} remove={() => unlink.mutateAsync('email')} onRemoved={say} />
 */
export function RemoveButton({ label, ariaLabel, method, removal, profile, question, confirmLabel, remove, onRemoved }: RemoveButtonProps) {
  const { t } = useI18n();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const start = () => {
    if (removal && !canRemove(profile, removal)) return setError({ code: 'ERR_LAST_SIGN_IN_METHOD' });
    setError(undefined);
    setAsking(true);
  };
  const confirm = () => {
    setBusy(true);
    remove().then(
      () => {
        setBusy(false);
        setAsking(false);
        onRemoved(t('account.removed', { method }));
      },
      (failure: unknown) => {
        setBusy(false);
        setAsking(false);
        setError(failure);
      },
    );
  };
  return (
    <div className="wk-account-action">
      <button type="button" className="wk-button" data-variant="danger" aria-label={ariaLabel} disabled={busy} onClick={start}>
        {label}
      </button>
      <ErrorText error={error} />
      <ConfirmDialog
        open={asking}
        title={question?.title ?? t('account.confirmRemove', { method })}
        description={question?.body ?? t('account.confirmRemoveBody')}
        confirmLabel={confirmLabel ?? t('common.remove')}
        cancelLabel={t('common.cancel')}
        busy={busy}
        onConfirm={confirm}
        onCancel={() => setAsking(false)}
      />
    </div>
  );
}
