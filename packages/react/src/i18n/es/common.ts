import type { common as en } from '../en/common.js';

/** common: Spanish. */
export const common = {
  'common.close': 'Cerrar',
  'common.cancel': 'Cancelar',
  'common.back': 'Atrás',
  'common.continue': 'Continuar',
  'common.loading': 'Cargando…',
  'common.retry': 'Reintentar',
  'common.copy': 'Copiar',
  'common.copied': 'Copiado',
  'common.or': 'o',
  'common.done': 'Listo',
  'common.save': 'Guardar',
  'common.remove': 'Quitar',
  'common.confirm': 'Confirmar',
  'common.contentToConfirm': 'Contenido que confirmar',
} satisfies Record<keyof typeof en, string>;
