const ESC = String.fromCharCode(0x1b)
const COLOR = new RegExp(`${ESC}\\[[0-9;]*m`, 'g')

/**
 * The raw C0, DEL and C1 control characters in `text` (newline and tab allowed), optionally after removing
 * SGR colour sequences, which are the only ones REA's own coloured output may carry.
 */
export function rawControlCharacters(text: string, options: { allowColors?: boolean } = {}): string[] {
  const checked = options.allowColors === true ? text.replace(COLOR, '') : text
  const found: string[] = []
  for (let index = 0; index < checked.length; index++) {
    const code = checked.charCodeAt(index)
    if ((code < 0x20 && code !== 0x0a && code !== 0x09) || (code >= 0x7f && code <= 0x9f)) {
      found.push(checked.charAt(index))
    }
  }
  return found
}
