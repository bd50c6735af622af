import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { escapeControlCharacters } from '../internal/escape-controls.js'

/**
 * xterm.js, the browser build of the terminal emulator REA captures with, inlined into every page so the page
 * renders screens with the same parser and cell model and opens without a network. Read on the first page, so
 * `import 'rea-capture'` never pays for half a megabyte of script.
 */

export interface PageAssets {
  readonly xtermScript: string
  /** The grapheme-cluster width model (@xterm/addon-unicode-graphemes), for frames rendered with it. */
  readonly graphemesScript: string
  readonly xtermStyle: string
}

let assets: PageAssets | undefined

export function loadPageAssets(): PageAssets {
  if (assets === undefined) {
    const require = createRequire(import.meta.url)
    const script = readFileSync(require.resolve('@xterm/xterm/lib/xterm.js'), 'utf8')
    const style = readFileSync(require.resolve('@xterm/xterm/css/xterm.css'), 'utf8')
    // In a browser the addon decodes its Unicode data with atob: Node's Buffer-pool bug (issue #6079) cannot occur.
    const graphemes = readFileSync(
      require.resolve('@xterm/addon-unicode-graphemes/lib/addon-unicode-graphemes.js'),
      'utf8',
    )
    assets = {
      xtermScript: inlineScript(script),
      graphemesScript: inlineScript(graphemes),
      xtermStyle: inlineStyle(style),
    }
  }
  return assets
}

/** A script's text where an HTML parser cannot end it early: no `</script` and no `<!--`. */
export function inlineScript(text: string): string {
  if (/<\/script|<!--/i.test(text)) {
    // Rewriting arbitrary script text could change its meaning; a new xterm.js release would have to be checked.
    throw new Error('the script cannot be inlined into a page: it contains "</script" or "<!--"')
  }
  return text
}

function inlineStyle(text: string): string {
  if (/<\/style/i.test(text)) {
    throw new Error('the style sheet cannot be inlined into a page: it contains "</style"')
  }
  return text
}

/** JSON inside `<script type="application/json">`: every `<` escaped, so no text in it can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replaceAll('<', '\\u003c')
}

/**
 * Text for HTML element content and attribute values, its invisible and control characters made visible first
 * (a bidi override would reorder what the page shows, a zero-width space hide a difference): the same rule as
 * for text on a terminal.
 */
export function escapeHtml(text: string): string {
  return escapeControlCharacters(text)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}
