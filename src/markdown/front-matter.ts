import type { SourceLine } from './scan-document.js'

/**
 * REA's part of a YAML front matter: the top-level key `rea`, whose value is option words in the info-string
 * grammar, on its line or on the more indented lines after `rea: |` (or `>`), joined by blanks. Every other key
 * is left to the site generator that owns the front matter. No YAML parser: REA ships none, and a subset that
 * silently differs from YAML would be worse than one grammar shared with the info string.
 */
export type FrontMatterOptions =
  | { readonly kind: 'none' }
  | { readonly kind: 'options'; readonly text: string; readonly line: number }
  | { readonly kind: 'error'; readonly line: number; readonly message: string }

export function readFrontMatterOptions(lines: readonly SourceLine[] | null): FrontMatterOptions {
  const index = lines?.findIndex((line) => /^rea\s*:/.test(line.text)) ?? -1
  if (lines === null || index === -1) {
    return { kind: 'none' }
  }
  const line = lines[index] as SourceLine
  const value = line.text.replace(/^rea\s*:/, '').trim()
  if (/^[|>][-+]?$/.test(value)) {
    const block: string[] = []
    for (const next of lines.slice(index + 1)) {
      if (next.text.trim() !== '' && !/^\s/.test(next.text)) {
        break
      }
      block.push(next.text.trim())
    }
    return { kind: 'options', text: block.join(' '), line: line.number }
  }
  if (/^["'[{]/.test(value)) {
    return {
      kind: 'error',
      line: line.number,
      message:
        "`rea:` takes option words as a console block's info string does (`rea: cols=60 timeout=5s`), or the same on indented lines after `rea: |`; not a quoted string, list or mapping",
    }
  }
  return { kind: 'options', text: value, line: line.number }
}
