import type { common as en } from '../en/common.js';

/** common: French. */
export const common = {
  'common.close': 'Fermer',
  'common.cancel': 'Annuler',
  'common.back': 'Retour',
  'common.continue': 'Continuer',
  'common.loading': 'Chargement…',
  'common.retry': 'Réessayer',
  'common.copy': 'Copier',
  'common.copied': 'Copié',
  'common.or': 'ou',
  'common.done': 'Terminé',
  'common.save': 'Enregistrer',
  'common.remove': 'Supprimer',
  'common.confirm': 'Confirmer',
  'common.contentToConfirm': 'Contenu à confirmer',
} satisfies Record<keyof typeof en, string>;
