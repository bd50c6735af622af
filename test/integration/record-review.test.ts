import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import type { ProcessScenarioInput, ScenarioEvent } from '../../src/index.js'
import { program, REPO_ROOT } from '../helpers/fixtures.js'
import { PersonAtTerminal } from '../helpers/person-at-terminal.js'
import { CLI } from '../helpers/run-cli.js'

const directory = mkdtempSync(path.join(tmpdir(), 'rea-record-review-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))
const relative = (name: string) => path.relative(REPO_ROOT, program(name))

/** Runs `rea record <flags> -- <command>` in a PTY from the repository's root, answering each prompt in turn. */
async function record(
  flags: readonly string[],
  command: readonly string[],
  answers: readonly [string, string][],
) {
  const person = new PersonAtTerminal([process.execPath, CLI, 'record', ...flags, '--', ...command], {
    cwd: REPO_ROOT,
  })
  try {
    for (const [prompt, typed] of answers) {
      await person.waitFor(prompt, 200)
      await person.type([...Array.from(typed), '\r'], 40)
    }
    const exit = await person.exited
    return { code: exit.code, output: person.output }
  } finally {
    person.kill()
    person.dispose()
  }
}

describe('rea record --verify', () => {
  test('names the text that varies between replays, proposes a redaction, and exits 1', async () => {
    const output = path.join(directory, 'lucky.scenario.json')
    const { code, output: text } = await record(
      ['--output', output, '--verify', '3'],
      [relative('lucky-number.mjs')],
      [['Your name? ', 'Ada']],
    )
    expect(code, text).toBe(1)
    expect(text).toContain('replays differ from the first')
    expect(text).toMatch(
      /Varying text on line \d+: "\d+" then "\d+", after "Hello Ada, your lucky number is "/,
    )
    expect(text).toContain('"regex":"your lucky number is (?<redacted>\\\\d+)"')
    // The scenario is written all the same, for the person to add the rule to.
    expect(existsSync(output)).toBe(true)
  })

  test('says a deterministic program is deterministic, and exits 0', async () => {
    const output = path.join(directory, 'fixed.scenario.json')
    const { code, output: text } = await record(
      ['--output', output, '--verify', '3'],
      [relative('lucky-number.mjs'), '--fixed'],
      [['Your name? ', 'Ada']],
    )
    expect(code, text).toBe(0)
    expect(text).toContain(
      '3 replays of the scenario hold against each other: the program is deterministic under it.',
    )
  })
})

describe('rea record: what was typed, reviewed before anything is written', () => {
  test('--dry-run prints the scenario and writes nothing', async () => {
    const before = readdirSync(REPO_ROOT)
    const { code, output } = await record(
      ['--dry-run'],
      [relative('lucky-number.mjs'), '--fixed'],
      [['Your name? ', 'Ada']],
    )
    expect(code, output).toBe(0)
    expect(output).toContain('"screen": "Your name? "')
    expect(output).toContain('dry run: nothing was written')
    expect(readdirSync(REPO_ROOT)).toEqual(before)
  })

  test('warns loudly about text stored in clear after a prompt that names a token, and --secret/--not-secret decide', async () => {
    const output = path.join(directory, 'token.scenario.json')
    const plain = await record(
      ['--output', output],
      [relative('token-prompt.mjs')],
      [
        ['API token: ', 'tk-9Qz'],
        ['Access code: ', '4711'],
      ],
    )
    expect(plain.code, plain.output).toBe(0)
    expect(plain.output).toMatch(
      /WARNING: events\[0\] stores what you typed IN CLEAR after a prompt that mentions a secret \(after "API token:"\)/,
    )
    const forced = path.join(directory, 'token-forced.scenario.json')
    const named = await record(
      ['--output', forced, '--secret', 'API token', '--not-secret', '/^Access/'],
      [relative('token-prompt.mjs')],
      [
        ['API token: ', 'tk-9Qz'],
        ['Access code: ', '4711'],
      ],
    )
    expect(named.code, named.output).toBe(0)
    const events = (JSON.parse(readFileSync(forced, 'utf8')) as ProcessScenarioInput)
      .events as ScenarioEvent[]
    expect(events).toEqual([
      {
        type: 'input',
        after: { screen: 'API token: ', quiet_ms: 100 },
        sensitive: true,
        data: '<secret-1>\r',
      },
      { type: 'input', after: { screen: 'Access code: ', quiet_ms: 100 }, data: '4711\r' },
    ])
    expect(named.output).toContain('--secret named its prompt')
    expect(readFileSync(forced, 'utf8')).not.toContain('9Qz')
  })
})
