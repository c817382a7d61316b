/**
 * What the secret frame says, in the kit's six languages. The frame is its own page on another
 * origin (it cannot use the React kit's catalog), so its few messages live here; the kit tells
 * it the language (`locale` in `init`, or a `locale` message), English until then.
 */

const en = {
  waitingExport: 'Waiting for the export…',
  revealPhrase: 'Your recovery phrase. Anyone who sees it controls your funds: never share it.',
  revealKey: 'Your private key. Anyone who sees it controls your funds: never share it.',
  labelPhrase: 'Recovery phrase',
  labelKey: 'Private key',
  hintPhrase: 'The words in order, separated by spaces.',
  hintKey: '64 hexadecimal characters (0x is optional).',
  copy: 'Copy',
  copied: 'Copied',
  copyFailed: 'Copy failed: select the text and copy it.',
  submit: 'Encrypt and import',
  encrypted: 'Encrypted. Importing…',
  failed: 'The request could not be completed. Close this and try again.',
  keyFormat: 'Enter 64 hexadecimal characters (0x is optional).',
  phraseEmpty: 'Type your recovery phrase: 12, 15, 18, 21 or 24 words.',
  phraseUnknownWord: 'Word {position}, “{word}”, is not a recovery phrase word. Check its spelling.',
  phraseUnknownWordSuggest: 'Word {position}, “{word}”, is not a recovery phrase word. Did you mean “{suggestion}”?',
  phraseWordCount: 'This phrase has {count} words; a recovery phrase has 12, 15, 18, 21 or 24.',
  phraseChecksum:
    'Every word is valid, but the phrase does not check out: a word is misspelled as another word, or two words are out of order. Compare it with your copy, word by word.',
};

export type FrameMessageKey = keyof typeof en;
type FrameMessages = Record<FrameMessageKey, string>;

const de: FrameMessages = {
  waitingExport: 'Warte auf den Export…',
  revealPhrase: 'Deine Wiederherstellungsphrase. Wer sie sieht, kontrolliert dein Guthaben: Gib sie niemals weiter.',
  revealKey: 'Dein privater Schlüssel. Wer ihn sieht, kontrolliert dein Guthaben: Gib ihn niemals weiter.',
  labelPhrase: 'Wiederherstellungsphrase',
  labelKey: 'Privater Schlüssel',
  hintPhrase: 'Die Wörter in der richtigen Reihenfolge, durch Leerzeichen getrennt.',
  hintKey: '64 Hexadezimalzeichen (0x ist optional).',
  copy: 'Kopieren',
  copied: 'Kopiert',
  copyFailed: 'Kopieren fehlgeschlagen: Markiere den Text und kopiere ihn selbst.',
  submit: 'Verschlüsseln und importieren',
  encrypted: 'Verschlüsselt. Wird importiert…',
  failed: 'Die Anfrage konnte nicht abgeschlossen werden. Schließe dies und versuche es erneut.',
  keyFormat: 'Gib 64 Hexadezimalzeichen ein (0x ist optional).',
  phraseEmpty: 'Gib deine Wiederherstellungsphrase ein: 12, 15, 18, 21 oder 24 Wörter.',
  phraseUnknownWord: 'Wort {position}, „{word}“, gehört nicht zu den Wörtern einer Wiederherstellungsphrase. Prüfe die Schreibweise.',
  phraseUnknownWordSuggest: 'Wort {position}, „{word}“, gehört nicht zu den Wörtern einer Wiederherstellungsphrase. Meintest du „{suggestion}“?',
  phraseWordCount: 'Diese Phrase hat {count} Wörter; eine Wiederherstellungsphrase hat 12, 15, 18, 21 oder 24.',
  phraseChecksum:
    'Jedes Wort ist gültig, aber die Phrase stimmt nicht: Ein Wort ist zu einem anderen Wort vertippt oder zwei Wörter sind vertauscht. Vergleiche sie Wort für Wort mit deiner Kopie.',
};

const es: FrameMessages = {
  waitingExport: 'Esperando la exportación…',
  revealPhrase: 'Tu frase de recuperación. Quien la vea controla tus fondos: no la compartas nunca.',
  revealKey: 'Tu clave privada. Quien la vea controla tus fondos: no la compartas nunca.',
  labelPhrase: 'Frase de recuperación',
  labelKey: 'Clave privada',
  hintPhrase: 'Las palabras en orden, separadas por espacios.',
  hintKey: '64 caracteres hexadecimales (0x es opcional).',
  copy: 'Copiar',
  copied: 'Copiado',
  copyFailed: 'No se pudo copiar: selecciona el texto y cópialo.',
  submit: 'Cifrar e importar',
  encrypted: 'Cifrado. Importando…',
  failed: 'No se pudo completar la solicitud. Cierra esto e inténtalo de nuevo.',
  keyFormat: 'Introduce 64 caracteres hexadecimales (0x es opcional).',
  phraseEmpty: 'Escribe tu frase de recuperación: 12, 15, 18, 21 o 24 palabras.',
  phraseUnknownWord: 'La palabra {position}, «{word}», no es una palabra de frase de recuperación. Revisa cómo está escrita.',
  phraseUnknownWordSuggest: 'La palabra {position}, «{word}», no es una palabra de frase de recuperación. ¿Quisiste decir «{suggestion}»?',
  phraseWordCount: 'Esta frase tiene {count} palabras; una frase de recuperación tiene 12, 15, 18, 21 o 24.',
  phraseChecksum:
    'Todas las palabras son válidas, pero la frase no cuadra: una palabra está mal escrita como otra palabra, o dos están en orden incorrecto. Compárala con tu copia, palabra por palabra.',
};

const fr: FrameMessages = {
  waitingExport: 'En attente de l’export…',
  revealPhrase: 'Votre phrase de récupération. Quiconque la voit contrôle vos fonds : ne la partagez jamais.',
  revealKey: 'Votre clé privée. Quiconque la voit contrôle vos fonds : ne la partagez jamais.',
  labelPhrase: 'Phrase de récupération',
  labelKey: 'Clé privée',
  hintPhrase: 'Les mots dans l’ordre, séparés par des espaces.',
  hintKey: '64 caractères hexadécimaux (0x est facultatif).',
  copy: 'Copier',
  copied: 'Copié',
  copyFailed: 'La copie a échoué : sélectionnez le texte et copiez-le.',
  submit: 'Chiffrer et importer',
  encrypted: 'Chiffré. Importation…',
  failed: 'La demande n’a pas pu aboutir. Fermez ceci et réessayez.',
  keyFormat: 'Saisissez 64 caractères hexadécimaux (0x est facultatif).',
  phraseEmpty: 'Saisissez votre phrase de récupération : 12, 15, 18, 21 ou 24 mots.',
  phraseUnknownWord: 'Le mot {position}, « {word} », n’est pas un mot de phrase de récupération. Vérifiez son orthographe.',
  phraseUnknownWordSuggest: 'Le mot {position}, « {word} », n’est pas un mot de phrase de récupération. Vouliez-vous dire « {suggestion} » ?',
  phraseWordCount: 'Cette phrase compte {count} mots ; une phrase de récupération en compte 12, 15, 18, 21 ou 24.',
  phraseChecksum:
    'Chaque mot est valide, mais la phrase ne correspond pas : un mot a été tapé comme un autre mot, ou deux mots sont inversés. Comparez-la avec votre copie, mot par mot.',
};

const ja: FrameMessages = {
  waitingExport: 'エクスポートを待っています…',
  revealPhrase: 'あなたのリカバリーフレーズです。見た人は誰でも資金を操作できます。絶対に共有しないでください。',
  revealKey: 'あなたの秘密鍵です。見た人は誰でも資金を操作できます。絶対に共有しないでください。',
  labelPhrase: 'リカバリーフレーズ',
  labelKey: '秘密鍵',
  hintPhrase: '単語を順番どおりに、スペースで区切って入力します。',
  hintKey: '16進数64文字（0x は省略可）。',
  copy: 'コピー',
  copied: 'コピーしました',
  copyFailed: 'コピーできませんでした。テキストを選択してコピーしてください。',
  submit: '暗号化してインポート',
  encrypted: '暗号化しました。インポートしています…',
  failed: 'リクエストを完了できませんでした。これを閉じて、もう一度お試しください。',
  keyFormat: '16進数64文字を入力してください（0x は省略可）。',
  phraseEmpty: 'リカバリーフレーズ（12、15、18、21、または24単語）を入力してください。',
  phraseUnknownWord: '{position} 番目の単語「{word}」はリカバリーフレーズの単語ではありません。つづりを確認してください。',
  phraseUnknownWordSuggest: '{position} 番目の単語「{word}」はリカバリーフレーズの単語ではありません。「{suggestion}」ではありませんか？',
  phraseWordCount: 'このフレーズは {count} 単語です。リカバリーフレーズは 12、15、18、21、または24単語です。',
  phraseChecksum:
    'どの単語も有効ですが、フレーズとして一致しません。ある単語が別の単語に打ち間違えられているか、2つの単語の順序が入れ替わっています。控えと1単語ずつ照らし合わせてください。',
};

const ar: FrameMessages = {
  waitingExport: 'في انتظار التصدير…',
  revealPhrase: 'عبارة الاسترداد الخاصة بك. أي شخص يراها يتحكم في أموالك: لا تشاركها أبدًا.',
  revealKey: 'مفتاحك الخاص. أي شخص يراه يتحكم في أموالك: لا تشاركه أبدًا.',
  labelPhrase: 'عبارة الاسترداد',
  labelKey: 'المفتاح الخاص',
  hintPhrase: 'الكلمات بالترتيب، تفصل بينها مسافات.',
  hintKey: '64 حرفًا ست عشريًا (البادئة 0x اختيارية).',
  copy: 'نسخ',
  copied: 'تم النسخ',
  copyFailed: 'تعذّر النسخ: حدّد النص وانسخه يدويًا.',
  submit: 'تشفير واستيراد',
  encrypted: 'تم التشفير. جارٍ الاستيراد…',
  failed: 'تعذّر إكمال الطلب. أغلق هذا وحاول مرة أخرى.',
  keyFormat: 'أدخل 64 حرفًا ست عشريًا (البادئة 0x اختيارية).',
  phraseEmpty: 'اكتب عبارة الاسترداد: 12 أو 15 أو 18 أو 21 أو 24 كلمة.',
  phraseUnknownWord: 'الكلمة رقم {position}، «{word}»، ليست من كلمات عبارات الاسترداد. تحقّق من تهجئتها.',
  phraseUnknownWordSuggest: 'الكلمة رقم {position}، «{word}»، ليست من كلمات عبارات الاسترداد. هل تقصد «{suggestion}»؟',
  phraseWordCount: 'عدد كلمات هذه العبارة: {count}؛ وتتكون عبارة الاسترداد من 12 أو 15 أو 18 أو 21 أو 24 كلمة.',
  phraseChecksum: 'كل الكلمات صحيحة، لكن العبارة لا تتطابق: إما أن كلمة كُتبت خطأً على هيئة كلمة أخرى، أو أن كلمتين في غير ترتيبهما. قارنها بنسختك كلمةً كلمة.',
};

const CATALOGS: Record<string, FrameMessages> = { en, de, es, fr, ja, ar };

/** The frame's language for a BCP 47 tag (`de-AT` -> `de`), English for anything else. */
export function frameLocale(tag: unknown): string {
  const base = typeof tag === 'string' ? tag.toLowerCase().split(/[-_]/)[0] : undefined;
  return base && base in CATALOGS ? base : 'en';
}

/**
 * The message `key` in `locale`, `{name}` placeholders filled (numbers in the locale's digits).
 * @example frameMessage('de', 'phraseWordCount', { count: 11 }) // 'Diese Phrase hat 11 Wörter; …'
 */
export function frameMessage(locale: string, key: FrameMessageKey, values: Record<string, string | number> = {}): string {
  const template = (CATALOGS[locale] ?? en)[key];
  const numbers = new Intl.NumberFormat(locale);
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = values[name];
    return value === undefined ? whole : typeof value === 'number' ? numbers.format(value) : value;
  });
}
