// Matching control characters is the point of this module.
/* eslint-disable no-control-regex */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g

/**
 * Makes C0 controls, DEL and C1 controls visible (`\e`, `\r`, `\x07`, `\u009b`), keeping newline and tab. Text
 * quoted from a file, an argument or a program's output is shown in someone's terminal; raw, an ESC in it
 * could retitle that terminal, move its cursor or hide the rest of a message.
 *
 * @example
 * escapeControlCharacters('\u001b]0;PWNED\u0007{') // '\\e]0;PWNED\\x07{'
 */
export function escapeControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, (character) => {
    const code = character.charCodeAt(0)
    if (character === '\r') {
      return '\\r'
    }
    if (character === '\u001b') {
      return '\\e'
    }
    // A C1 control is a code point, not a byte: `\x9b` would read as the byte of an invalid UTF-8 sequence.
    return code >= 0x80
      ? `\\u${code.toString(16).padStart(4, '0')}`
      : `\\x${code.toString(16).padStart(2, '0')}`
  })
}
