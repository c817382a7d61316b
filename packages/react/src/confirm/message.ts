/** A message to sign as the confirmation shows it: readable text, or hex when it is not text. */
export type MessageView = { kind: 'text'; text: string } | { kind: 'hex'; hex: string; byteLength: number };

/** Control characters other than tab, line feed and carriage return: bytes that only pretend to be text. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the class is the control characters a message must not hide
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/**
 * A string is signed as its UTF-8 bytes and shown as it is. Bytes are shown as text when they
 * are valid UTF-8 without control or bidi-override characters (which could make the text read
 * differently from what is signed), else as hex.
 * @example describeMessage('hello') // { kind: 'text', text: 'hello' }
 * @example describeMessage(new Uint8Array([0xff, 0x00])) // { kind: 'hex', hex: '0xff00', byteLength: 2 }
 */
export function describeMessage(message: string | Uint8Array): MessageView {
  if (typeof message === 'string') return { kind: 'text', text: message };
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(message);
    if (!CONTROL.test(text)) return { kind: 'text', text };
  } catch {
    // not UTF-8: shown as hex below
  }
  return { kind: 'hex', hex: `0x${Array.from(message, (b) => b.toString(16).padStart(2, '0')).join('')}`, byteLength: message.length };
}
