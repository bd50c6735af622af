#!/usr/bin/env node
// Reads a terminal description from this host's terminfo with `infocmp -1 -x`, as REA's built-in table of
// XTGETTCAP replies was made (src/screen/terminfo-xterm.ts): string and numeric capabilities, by terminfo name,
// with their values decoded to the characters the terminal would send. REA never reads terminfo at run time;
// this is for generating that table and for the test that holds it to the host's description where one exists.
//
//   node test/helpers/terminfo-source.mjs xterm-256color   prints {"name": value, …} as JSON
//   node test/helpers/terminfo-source.mjs --write          writes src/screen/terminfo-xterm.ts (then run prettier)
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'

/** Left out of REA's tables: the size is the PTY's, not the description's. */
export const OMITTED_CAPABILITIES = ['cols', 'lines']

/** The capabilities of `type` from this host's terminfo; throws when infocmp or the type is missing. */
export function readTerminfo(type) {
  const text = execFileSync('infocmp', ['-1', '-x', type], { encoding: 'utf8' })
  const capabilities = {}
  for (const line of text.split('\n').slice(2)) {
    const entry = line.trim().replace(/,$/, '')
    const string = /^([^=#]+)=(.*)$/s.exec(entry)
    const number = /^([^=#]+)#(.+)$/.exec(entry)
    if (string !== null) {
      capabilities[string[1]] = decodeString(string[2])
    } else if (number !== null) {
      capabilities[number[1]] = String(Number(number[2]))
    }
  }
  return capabilities
}

// terminfo(5) "String capabilities": \E and \e are ESC, ^X a control character, a few backslash escapes, octal.
function decodeString(text) {
  let out = ''
  for (let index = 0; index < text.length; index++) {
    const character = text[index]
    if (character === '^' && index + 1 < text.length) {
      const next = text[++index]
      out += next === '?' ? '\x7f' : String.fromCharCode(next.toUpperCase().charCodeAt(0) & 0x1f)
    } else if (character === '\\' && index + 1 < text.length) {
      const next = text[++index]
      const simple = { E: '\x1b', e: '\x1b', n: '\n', l: '\n', r: '\r', t: '\t', b: '\b', f: '\f', s: ' ' }
      if (next in simple) {
        out += simple[next]
      } else if (/[0-7]/.test(next)) {
        const octal = text.slice(index, index + 3)
        index += 2
        // \0 stands for NUL, which terminfo stores as \200.
        out += octal === '000' ? '\x80' : String.fromCharCode(parseInt(octal, 8))
      } else {
        out += next
      }
    } else {
      out += character
    }
  }
  return out
}

/** The TypeScript module of REA's tables: xterm-256color in full, xterm as its differences. */
function tableModule() {
  const base = readTerminfo('xterm-256color')
  const plain = readTerminfo('xterm')
  const kept = (object) =>
    Object.entries(object)
      .filter(([name]) => !OMITTED_CAPABILITIES.includes(name))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const body = (pairs) =>
    pairs.map(([name, value]) => `  ${JSON.stringify(name)}: ${JSON.stringify(value)},`).join('\n')
  const removed = kept(base).flatMap(([name]) => (name in plain ? [] : [name]))
  const changed = kept(plain).filter(([name, value]) => base[name] !== value)
  return `// Generated from ncurses 6.4's terminfo (Debian 12) by \`node test/helpers/terminfo-source.mjs --write\`; the test
// test/unit/screen/terminfo-xterm.test.ts holds it to the host's description where infocmp has one. Do not edit by
// hand: REA answers XTGETTCAP from these tables and never reads the host's terminfo.

/** A terminal description: capability name (terminfo, with ncurses extensions) to its value as the terminal sends it. */
export type TerminalDescription = Readonly<Record<string, string>>

// Most captures meet no XTGETTCAP query: the tables are built by the first one, not by every capture's start.
function builtOnFirstUse(build: () => TerminalDescription): () => TerminalDescription {
  let description: TerminalDescription | undefined
  return () => (description ??= build())
}

/** String and numeric capabilities of \`xterm-256color\`; \`cols\` and \`lines\` are left out (the PTY has the size). */
export const xterm256ColorDescription = builtOnFirstUse(
  // eslint-disable-next-line max-lines-per-function -- a generated table, one line per capability
  () => ({
${body(kept(base))}
  }),
)

/** \`xterm\`: the same terminal with 8 colours (${changed.map(([name]) => name).join(', ')} differ; ${removed.join(', ')} absent). */
export const xtermDescription = builtOnFirstUse(() => ({
  ...Object.fromEntries(
    Object.entries(xterm256ColorDescription()).filter(([name]) => !${JSON.stringify(removed)}.includes(name)),
  ),
${body(changed)}
}))
`
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === '--write') {
    writeFileSync(new URL('../../src/screen/terminfo-xterm.ts', import.meta.url), tableModule())
  } else {
    process.stdout.write(`${JSON.stringify(readTerminfo(process.argv[2] ?? 'xterm-256color'), null, 2)}\n`)
  }
}
