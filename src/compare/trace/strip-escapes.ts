const ESC = 0x1b
const BEL = 0x07
const C1_CSI = 0x9b
const C1_ST = 0x9c
const C1_OSC = 0x9d
/** C1 controls that open a control string (DCS, SOS, PM, APC), ended by ST. */
const C1_STRING_OPENERS = new Set([0x90, 0x98, 0x9e, 0x9f])
/** After ESC: the letters that open the same control strings in 7-bit form. */
const ESC_STRING_OPENERS = new Set(['P', 'X', '^', '_'])

const inRange = (code: number, low: number, high: number) => code >= low && code <= high

/**
 * Removes ECMA-48 escape sequences (CSI, OSC, DCS/SOS/PM/APC strings and two- or three-character escapes), in
 * 7-bit and C1 form, so a line matches the text a program meant rather than its colours and cursor moves.
 * An unterminated sequence is removed to the end of the text, as a terminal would swallow it; other control
 * characters are kept.
 *
 * @example
 * stripEscapes('\u001b[32mdone\u001b[0m') // 'done'
 */
export function stripEscapes(text: string): string {
  let kept = ''
  let start = 0
  let index = 0
  while (index < text.length) {
    const code = text.charCodeAt(index)
    let end: number | undefined
    if (code === ESC) {
      end = skipEscape(text, index + 1)
    } else if (code === C1_CSI) {
      end = skipCsi(text, index + 1)
    } else if (code === C1_OSC) {
      end = skipControlString(text, index + 1, true)
    } else if (C1_STRING_OPENERS.has(code)) {
      end = skipControlString(text, index + 1, false)
    }
    if (end === undefined) {
      index++
      continue
    }
    kept += text.slice(start, index)
    start = end
    index = end
  }
  return start === 0 ? text : kept + text.slice(start)
}

/** `index` is just past the ESC; returns where the sequence ends. */
function skipEscape(text: string, index: number): number {
  if (index >= text.length) {
    return index
  }
  const next = text[index] as string
  if (next === '[') {
    return skipCsi(text, index + 1)
  }
  if (next === ']') {
    return skipControlString(text, index + 1, true)
  }
  if (ESC_STRING_OPENERS.has(next)) {
    return skipControlString(text, index + 1, false)
  }
  let end = index
  while (end < text.length && inRange(text.charCodeAt(end), 0x20, 0x2f)) {
    end++
  }
  if (end < text.length && inRange(text.charCodeAt(end), 0x30, 0x7e)) {
    return end + 1
  }
  // Not a sequence (ESC before a control or non-ASCII character): only the ESC goes.
  return end === index ? index : end
}

/** Parameters 0x30–0x3F, intermediates 0x20–0x2F, one final byte 0x40–0x7E. */
function skipCsi(text: string, index: number): number {
  let end = index
  while (end < text.length && inRange(text.charCodeAt(end), 0x30, 0x3f)) {
    end++
  }
  while (end < text.length && inRange(text.charCodeAt(end), 0x20, 0x2f)) {
    end++
  }
  return end < text.length && inRange(text.charCodeAt(end), 0x40, 0x7e) ? end + 1 : end
}

/** Up to and including the string terminator (ESC \ or U+009C; BEL as well for OSC, as xterm accepts). */
function skipControlString(text: string, index: number, belTerminates: boolean): number {
  for (let end = index; end < text.length; end++) {
    const code = text.charCodeAt(end)
    if (code === C1_ST || (belTerminates && code === BEL)) {
      return end + 1
    }
    if (code === ESC && text[end + 1] === '\\') {
      return end + 2
    }
  }
  return text.length
}
