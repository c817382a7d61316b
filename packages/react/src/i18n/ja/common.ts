import type { common as en } from '../en/common.js';

/** common: Japanese. */
export const common = {
  'common.close': '閉じる',
  'common.cancel': 'キャンセル',
  'common.back': '戻る',
  'common.continue': '続ける',
  'common.loading': '読み込み中…',
  'common.retry': '再試行',
  'common.copy': 'コピー',
  'common.copied': 'コピーしました',
  'common.or': 'または',
  'common.done': '完了',
  'common.save': '保存',
  'common.remove': '削除',
  'common.confirm': '確認',
  'common.contentToConfirm': '確認する内容',
} satisfies Record<keyof typeof en, string>;
