import type { common as en } from '../en/common.js';

/** common: German. */
export const common = {
  'common.close': 'Schließen',
  'common.cancel': 'Abbrechen',
  'common.back': 'Zurück',
  'common.continue': 'Weiter',
  'common.loading': 'Wird geladen…',
  'common.retry': 'Erneut versuchen',
  'common.copy': 'Kopieren',
  'common.copied': 'Kopiert',
  'common.or': 'oder',
  'common.done': 'Fertig',
  'common.save': 'Speichern',
  'common.remove': 'Entfernen',
  'common.confirm': 'Bestätigen',
  'common.contentToConfirm': 'Zu bestätigender Inhalt',
} satisfies Record<keyof typeof en, string>;
