import type { ReactNode } from 'react';
import { useI18n } from '../i18n/context.js';
import { Modal } from './Modal.js';

/** Props of {@link ConfirmDialog}. */
export interface ConfirmDialogProps {
  open: boolean;
  title: ReactNode;
  /** Why the user is asked, shown above the content. */
  description?: ReactNode | undefined;
  /** Exactly what will be signed or revealed, shown verbatim (monospace, wrapped). */
  content?: string | undefined;
  confirmLabel?: string | undefined;
  cancelLabel?: string | undefined;
  /** Disables the buttons while the confirmed action runs. */
  busy?: boolean | undefined;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * Ask before signing or exporting, showing exactly what is at stake.
 * @example
 * <ConfirmDialog open title="Sign this message?" content={message} onConfirm={sign} onCancel={close} />
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { t } = useI18n();
  const { open, title, description, content, confirmLabel = t('common.confirm'), cancelLabel = t('common.cancel'), busy = false } = props;
  return (
    <Modal open={open} onClose={props.onCancel} title={title}>
      <div className="wk-stack">
        {description && <p className="wk-hint">{description}</p>}
        {content !== undefined && (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable)
          // biome-ignore lint/a11y/useAriaPropsSupportedByRole: the name is what a screen reader announces when that focus stop is reached
          <pre className="wk-code" data-testid="wk-confirm-content" tabIndex={0} aria-label={t('common.contentToConfirm')}>
            {content}
          </pre>
        )}
        <div className="wk-row">
          <button type="button" className="wk-button" data-variant="primary" disabled={busy} onClick={props.onConfirm}>
            {confirmLabel}
          </button>
          <button type="button" className="wk-button" disabled={busy} onClick={props.onCancel}>
            {cancelLabel}
          </button>
        </div>
      </div>
    </Modal>
  );
}
