import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

/**
 * Every form in which `secret`'s runs of `length` consecutive characters could be written: as typed, escaped as
 * JSON writes a string (`\"`, `\\`), and with every character as a `\u` escape.
 */
export function secretForms(secret: string, length = 3): string[] {
  const characters = Array.from(secret)
  const forms = new Set<string>()
  for (let start = 0; start + length <= characters.length; start++) {
    const run = characters.slice(start, start + length).join('')
    forms.add(run)
    forms.add(JSON.stringify(run).slice(1, -1))
    forms.add(
      Array.from(run)
        .map((character) => `\\u${(character.codePointAt(0) as number).toString(16).padStart(4, '0')}`)
        .join(''),
    )
  }
  return [...forms]
}

/** Every file under `folder` (links not followed), with each form of `secret` it holds. */
export function secretHits(
  files: readonly string[],
  secret: string,
): { file: string; form: string; around: string }[] {
  const forms = secretForms(secret)
  const hits: { file: string; form: string; around: string }[] = []
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    for (const form of forms) {
      const at = text.indexOf(form)
      if (at !== -1) {
        // The text around the first hit, so that a failure shows which part of the file holds it.
        hits.push({ file, form, around: text.slice(Math.max(0, at - 120), at + form.length + 40) })
      }
    }
  }
  return hits
}

/** The regular files under `folder`, recursively, `node_modules` left out. */
export function filesUnder(folder: string): string[] {
  const files: string[] = []
  for (const name of readdirSync(folder)) {
    const full = path.join(folder, name)
    const stat = statSync(full, { throwIfNoEntry: false })
    if (name === 'node_modules' || stat === undefined) {
      continue
    }
    if (stat.isDirectory()) {
      files.push(...filesUnder(full))
    } else if (stat.isFile()) {
      files.push(full)
    }
  }
  return files
}
