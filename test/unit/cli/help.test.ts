import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { parseCommandLine } from '../../../src/cli/arguments.js'
import { defaultText, optionSynopsis, usageLine, type CommandTable } from '../../../src/cli/command-table.js'
import { COMMAND_NAMES, COMMAND_TABLES } from '../../../src/cli/command-tables.js'
import { answerWithoutEngine, commandHelp } from '../../../src/cli/help.js'
import { EXPORT } from '../../../src/cli/tables/export.js'
import { RECORD } from '../../../src/cli/tables/record.js'
import { SCHEMA } from '../../../src/cli/tables/schema.js'
import { ASCIICAST_VERSIONS, SCHEMA_NAMES, TEST_RUNNERS } from '../../../src/front-end.js'
import { REA_VERSION } from '../../../src/version.js'

const TABLES: readonly CommandTable[] = COMMAND_TABLES
const OPTIONS = TABLES.flatMap((table) => table.options.map((entry) => ({ table, entry })))

/** A help example as the shell would split it, without what it redirects or pipes to. */
function exampleArguments(example: string, table: CommandTable): string[] {
  const words = example.split(' ')
  const end = words.findIndex((word) => /^\d?>$|^\|$/.test(word))
  const [rea, name, ...argv] = end === -1 ? words : words.slice(0, end)
  expect(`${rea} ${name}`, example).toBe(`rea ${table.name}`)
  return argv
}

describe('the command tables', () => {
  test.for(OPTIONS.map(({ table, entry }) => [`${table.name} --${entry.name}`, table, entry] as const))(
    '%s has a one-line description, a default and an example that uses it',
    ([, table, entry]) => {
      expect(entry.description).toMatch(/^\S.{10,118}\.$/)
      expect(entry.description).not.toContain('\n')
      expect(defaultText(entry)).not.toBe('none')
      const argv = exampleArguments(entry.example, table)
      const spellings = [`--${entry.name}`, ...(entry.short === undefined ? [] : [`-${entry.short}`])]
      expect(
        argv.some((word) =>
          spellings.some((spelling) => word === spelling || word.startsWith(`${spelling}=`)),
        ),
        entry.example,
      ).toBe(true)
    },
  )

  test.for(TABLES.map((table) => [table.name, table] as const))(
    'every example of %s is a command line its parser accepts',
    ([, table]) => {
      for (const example of [...table.options.map((entry) => entry.example), ...(table.examples ?? [])]) {
        expect(() => parseCommandLine(table, exampleArguments(example, table)), example).not.toThrow()
      }
    },
  )

  test.for(TABLES.map((table) => [table.name, table] as const))(
    'the parser of %s accepts exactly the options of its table',
    ([, table]) => {
      const positionals = table.positionals
        .filter((entry) => entry.optional !== true)
        .map((entry) => entry.choices?.[0] ?? 'x.json')
      const line = (options: string[]): string[] =>
        table.positionalsAfterDoubleDash === true
          ? [...options, '--', ...positionals]
          : [...positionals, ...options]
      for (const entry of table.options) {
        const value = entry.kind === 'value' ? [entry.choices?.[0] ?? 'x'] : []
        const parsed = parseCommandLine(table, line([`--${entry.name}`, ...value]))
        expect((parsed.values as Record<string, unknown>)[entry.name]).toEqual(
          entry.kind === 'flag' ? true : entry.repeatable === true ? value : value[0],
        )
      }
      const names = new Set(table.options.map((entry) => entry.name))
      const foreign = [...new Set(OPTIONS.map(({ entry }) => entry.name))].filter((name) => !names.has(name))
      for (const name of [
        ...foreign,
        'bogus',
        ...table.options.filter((e) => e.kind === 'flag').map((e) => `no-${e.name}`),
      ]) {
        expect(() => parseCommandLine(table, line([`--${name}`, 'x'])), name).toThrow(/Unknown option/)
      }
    },
  )

  test('an option left out takes the default its table states, and a value outside the choices is refused', () => {
    const { values } = parseCommandLine(EXPORT, ['asciicast', 'capture.json'])
    expect(values['cast-version']).toBe('2')
    expect(values.output).toBeUndefined()
    expect(() => parseCommandLine(EXPORT, ['asciicast', 'c.json', '--cast-version', '4'])).toThrow(
      '--cast-version must be one of 2, 3: got "4".',
    )
    expect(() => parseCommandLine(SCHEMA, ['nothing'])).toThrow(
      'the schema name must be one of scenario, evidence, trace, comparison: got "nothing".',
    )
  })

  test('a repeatable option keeps every value in order, and none when it is not given', () => {
    const given = parseCommandLine(RECORD, ['--secret', 'PIN', '--secret', '/^Code/', '--', 'node', 'a.mjs'])
    expect(given.values.secret).toEqual(['PIN', '/^Code/'])
    expect(given.values['not-secret']).toEqual([])
    expect(usageLine(RECORD)).toContain('[--secret <prompt text|/regex/>]…')
  })

  test('choices that the engine defines too are the same', () => {
    expect(SCHEMA.positionals[0].choices).toEqual(SCHEMA_NAMES)
    expect(RECORD.options.find((entry) => entry.name === 'runner')?.choices).toEqual(TEST_RUNNERS)
    expect(EXPORT.options.find((entry) => entry.name === 'cast-version')?.choices).toEqual(
      ASCIICAST_VERSIONS.map(String),
    )
  })

  test('docs/cli.md shows every usage line and every option as the tables write them', () => {
    const page = readFileSync(new URL('../../../docs/cli.md', import.meta.url), 'utf8')
    for (const table of TABLES) {
      expect(page).toContain(usageLine(table))
      for (const entry of table.options) {
        expect(page, `${table.name} --${entry.name}`).toContain(`--${entry.name}`)
      }
    }
  })
})

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
      for (const table of TABLES) {
        expect(text).toContain(`  ${table.name}`)
        expect(text).toContain(table.summary)
      }
    }
  })

  test.for(COMMAND_NAMES)(
    'help %s and its --help print every argument and option, each with its description, default and example',
    (name) => {
      const table = TABLES.find((each) => each.name === name) as CommandTable
      const text = answerWithoutEngine(['help', name])
      expect(text).toBe(commandHelp(table))
      expect(answerWithoutEngine([name, 'x.json', '--help'])).toBe(text)
      expect(text).toContain(`Usage: ${usageLine(table)}\n`)
      for (const entry of table.positionals) {
        expect(text).toContain(entry.description)
      }
      for (const entry of table.options) {
        expect(text).toContain(`  ${optionSynopsis(entry)}`)
        expect(text).toContain(`      ${entry.description}\n`)
        expect(text).toContain(`      Default: ${defaultText(entry)}\n`)
        expect(text).toContain(`      Example: ${entry.example}\n`)
      }
    },
  )

  test('a command line that runs something, or names no command, is left to the engine', () => {
    expect(answerWithoutEngine(['capture-process', 'x.json'])).toBeUndefined()
    expect(answerWithoutEngine(['nonsense', '--help'])).toBeUndefined()
  })

  test('the entry, help and the tables import nothing of the engine, so --help stays as fast as Node', () => {
    const importsOf = (file: string): string[] =>
      [
        ...readFileSync(new URL(`../../../src/cli/${file}`, import.meta.url), 'utf8').matchAll(
          /^import (?!type ).*from '([^']+)'/gm,
        ),
      ].map((match) => match[1]!)
    // node:module for createRequire and Node 22's compile cache; run.js is only a type, its bundle is required later.
    expect(importsOf('main.ts')).toEqual([
      'node:module',
      './compile-cache.js',
      './exit-codes.js',
      './help.js',
      './signals.js',
      './write-errors.js',
    ])
    expect(importsOf('write-errors.ts')).toEqual([])
    expect(importsOf('compile-cache.ts')).toEqual(['node:fs', 'node:module', 'node:os'])
    expect(importsOf('help.ts')).toEqual(['../version.js', './command-table.js', './command-tables.js'])
    expect(importsOf('command-table.ts')).toEqual([])
    const tables = readdirSync(new URL('../../../src/cli/tables/', import.meta.url))
    expect(importsOf('command-tables.ts')).toEqual(
      expect.arrayContaining(tables.map((file) => `./tables/${file.replace(/\.ts$/, '.js')}`)),
    )
    expect(importsOf('command-tables.ts')).toHaveLength(tables.length)
    for (const file of tables) {
      expect(importsOf(`tables/${file}`), file).toEqual([])
    }
    // exit-codes.ts and signals.ts import only types from the engine, which the build erases.
    for (const file of ['exit-codes.ts', 'signals.ts']) {
      const source = readFileSync(new URL(`../../../src/cli/${file}`, import.meta.url), 'utf8')
      expect(source.match(/^import (?!type ).*$/gm) ?? [], file).toEqual([])
    }
  })
})
