import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { COMMAND_NAMES, COMMAND_TEXT } from '../../../src/cli/command-text.js'
import { answerWithoutEngine } from '../../../src/cli/help.js'
import { SCHEMA_NAMES } from '../../../src/front-end.js'
import { REA_VERSION } from '../../../src/version.js'

describe('answers that need no engine', () => {
  test('--version and -V print the version', () => {
    expect(answerWithoutEngine(['--version'])).toBe(`${REA_VERSION}\n`)
    expect(answerWithoutEngine(['-V'])).toBe(`${REA_VERSION}\n`)
  })

  test('leaves --help after -- to the command rea record runs', () => {
    expect(answerWithoutEngine(['record', '--help'])).toContain('Usage: rea record')
    expect(answerWithoutEngine(['record', '--', 'tool', '--help'])).toBeUndefined()
  })

  test('no arguments, --help, -h and help list every command with its summary', () => {
    for (const argv of [[], ['--help'], ['-h'], ['help'], ['help', 'no-such-command']]) {
      const text = answerWithoutEngine(argv)
      for (const name of COMMAND_NAMES) {
        expect(text).toContain(`  ${name}`)
        expect(text).toContain(COMMAND_TEXT[name].summary)
      }
    }
  })

  test('help <command> and <command> --help print its usage', () => {
    expect(answerWithoutEngine(['help', 'view'])).toBe(`Usage: ${COMMAND_TEXT.view.usage}\n`)
    expect(answerWithoutEngine(['capture-process', 'x.json', '--help'])).toContain(
      `Usage: ${COMMAND_TEXT['capture-process'].usage}`,
    )
  })

  test('a command line that runs something, or names no command, is left to the engine', () => {
    expect(answerWithoutEngine(['capture-process', 'x.json'])).toBeUndefined()
    expect(answerWithoutEngine(['nonsense', '--help'])).toBeUndefined()
  })

  test('the schema usage names exactly the schemas rea schema prints', () => {
    expect(COMMAND_TEXT.schema.usage).toBe(`rea schema <${SCHEMA_NAMES.join('|')}>`)
  })

  test('the entry and the help module import nothing of the engine, so --version stays as fast as Node', () => {
    const importsOf = (file: string): string[] =>
      [
        ...readFileSync(new URL(`../../../src/cli/${file}`, import.meta.url), 'utf8').matchAll(
          /from '([^']+)'/g,
        ),
      ].map((match) => match[1]!)
    // node:module for createRequire and Node 22's compile cache; run.js is only a type, its bundle is required later.
    expect(importsOf('main.ts')).toEqual([
      'node:module',
      './exit-codes.js',
      './run.js',
      './help.js',
      './signals.js',
      './write-errors.js',
    ])
    expect(importsOf('write-errors.ts')).toEqual([])
    expect(importsOf('help.ts')).toEqual(['../version.js', './command-text.js'])
    expect(importsOf('command-text.ts')).toEqual([])
    // exit-codes.ts and signals.ts import only types from the engine, which the build erases.
    for (const file of ['exit-codes.ts', 'signals.ts']) {
      const source = readFileSync(new URL(`../../../src/cli/${file}`, import.meta.url), 'utf8')
      expect(source.match(/^import (?!type ).*$/gm) ?? [], file).toEqual([])
    }
  })
})
