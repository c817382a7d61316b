import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useI18n } from '../i18n/context.js';
import { useKitRoot } from '../theme/theme.js';

/** Props of {@link Modal}. */
export interface ModalProps {
  /** Shown as a modal when true. */
  open: boolean;
  /** Called on Escape and on the close button; the parent sets `open` to false. */
  onClose: () => void;
  /** The heading; the dialog is labelled by it. */
  title: ReactNode;
  children?: ReactNode | undefined;
  /** Label of the close button (default the catalog's `common.close`, "Close"). */
  closeLabel?: string | undefined;
  /** Shown above the title, e.g. the app's logo and name (the auth modal's). */
  brand?: ReactNode | undefined;
  /** Extra class names of the dialog (an area's styles: `wk-auth`). */
  className?: string | undefined;
}

/**
 * A modal dialog on the native `<dialog>` element: `showModal()` gives the focus trap and
 * makes the page inert, Escape closes, focus returns to the element that had it before.
 * The dialog is labelled by `title`. Children mount only while open, so their state resets.
 * The close button comes first in the tab order, at the header's inline end (left in Arabic).
 * @example
 * <Modal open={open} onClose={() => setOpen(false)} title="Log in">…</Modal>
 */
export function Modal({ open, onClose, title, children, closeLabel, brand, className }: ModalProps) {
  const { t } = useI18n();
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const root = useKitRoot(className ? `wk-dialog ${className}` : 'wk-dialog');

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement as HTMLElement | null;
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  // Return focus when the dialog closes, whoever closed it.
  useEffect(() => {
    if (open) return;
    const target = opener.current;
    opener.current = null;
    if (target?.isConnected) target.focus();
  }, [open]);

  useEffect(() => () => ref.current?.close(), []);

  return (
    <dialog
      ref={ref}
      {...root}
      aria-labelledby={titleId}
      data-state={open ? 'open' : 'closed'}
      // Escape fires `cancel`; keep the dialog's open state owned by React.
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onClose();
        }
      }}
    >
      {open && (
        <>
          <div className="wk-dialog-header">
            {brand}
            <h2 id={titleId} className="wk-title">
              {title}
            </h2>
            <button type="button" className="wk-button wk-dialog-close" data-variant="ghost" onClick={onClose} aria-label={closeLabel ?? t('common.close')}>
              <span aria-hidden="true">×</span>
            </button>
          </div>
          {children}
        </>
      )}
    </dialog>
  );
}
