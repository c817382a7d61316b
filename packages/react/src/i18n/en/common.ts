/** common: words every part of the kit uses. */
export const common = {
  'common.close': 'Close',
  'common.cancel': 'Cancel',
  'common.back': 'Back',
  'common.continue': 'Continue',
  'common.loading': 'Loading…',
  'common.retry': 'Try again',
  'common.copy': 'Copy',
  'common.copied': 'Copied',
  'common.or': 'or',
  'common.done': 'Done',
  'common.save': 'Save',
  'common.remove': 'Remove',
  'common.confirm': 'Confirm',
  'common.contentToConfirm': 'Content to confirm',
} as const;
