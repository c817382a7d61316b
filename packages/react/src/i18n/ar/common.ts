import type { common as en } from '../en/common.js';

/** common: Arabic. */
export const common = {
  'common.close': 'إغلاق',
  'common.cancel': 'إلغاء',
  'common.back': 'رجوع',
  'common.continue': 'متابعة',
  'common.loading': 'جارٍ التحميل…',
  'common.retry': 'إعادة المحاولة',
  'common.copy': 'نسخ',
  'common.copied': 'تم النسخ',
  'common.or': 'أو',
  'common.done': 'تم',
  'common.save': 'حفظ',
  'common.remove': 'إزالة',
  'common.confirm': 'تأكيد',
  'common.contentToConfirm': 'المحتوى المطلوب تأكيده',
} satisfies Record<keyof typeof en, string>;
