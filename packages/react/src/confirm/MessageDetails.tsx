import { useI18n } from '../i18n/context.js';
import { describeMessage } from './message.js';

/**
 * A message to sign, verbatim: its text, or its hex when the bytes are not readable text.
 * @example <MessageDetails message="Sign in to Demo" />
 */
export function MessageDetails({ message }: { message: string | Uint8Array }) {
  const { t, plural } = useI18n();
  const view = describeMessage(message);
  return (
    <>
      {view.kind === 'hex' && <p className="wk-hint">{plural('confirm.messageHex', view.byteLength)}</p>}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable) */}
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the name is what a screen reader announces when that focus stop is reached */}
      <pre className="wk-code" data-testid="wk-confirm-content" tabIndex={0} aria-label={t('confirm.messageLabel')} dir="auto">
        {view.kind === 'text' ? view.text : view.hex}
      </pre>
    </>
  );
}
