import { commonPrefix, type Field } from './fields.js'

/** Fewer visible characters than this is not a prompt (clack's `│  `, an empty row). */
const MIN_PROMPT_CHARACTERS = 2

/**
 * The prompt a field was typed at, as the program first drew it (before any of the field's keys, so it holds
 * none of the typed text): what the field's event waits for, and what `--secret` and `--not-secret` match.
 * With the cursor shown, the text left of it on its row (`? Your name? `, `Password: `). With it hidden (prompt
 * libraries that draw their own cursor), the row the first key changed, left of the first change, or, when
 * that holds no prompt, the nearest row above with one (clack's `◆  Password`, Inquirer's `? Pick a color`).
 * Undefined when no row qualifies.
 */
export function promptAsFirstDrawn(field: Field): string | undefined {
  const first = field.keys[0] as Field['keys'][number]
  const start = first.entry.screen
  // As drawn: a cell left of the cursor that the program never wrote is no part of what a screen wait reads.
  const beforeCursor = commonPrefix(start.rows[start.cursor.row] ?? '', start.beforeCursor)
  if (start.cursor.visible && isPrompt(beforeCursor)) {
    return shape(beforeCursor)
  }
  const after = first.entry.answer.screen.rows
  const firstChanged = start.rows.findIndex((row, index) => row !== (after[index] ?? ''))
  let row = start.cursor.row
  let text = beforeCursor
  if (firstChanged !== -1 && firstChanged <= start.cursor.row) {
    row = firstChanged
    text = commonPrefix(start.rows[row] ?? '', after[row] ?? '')
  }
  for (; row >= 0; row--, text = start.rows[row] ?? '') {
    if (isPrompt(text)) {
      return shape(text)
    }
  }
  return undefined
}

function isPrompt(text: string): boolean {
  return text.replace(/\s/g, '').length >= MIN_PROMPT_CHARACTERS
}

/** Leading blanks kept (indentation is part of the row), trailing ones cut to one: `Name? ` stays `Name? `. */
function shape(text: string): string {
  return text.replace(/\s{2,}$/, ' ')
}
