import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { afterAll, describe, expect, test } from 'vitest'
import type { ProcessScenarioInput, ScenarioEvent } from '../../src/index.js'
import { fixtureProjects } from '../helpers/fixture-project.js'
import { program, REPO_ROOT } from '../helpers/fixtures.js'
import { PersonAtTerminal } from '../helpers/person-at-terminal.js'
import { CLI } from '../helpers/run-cli.js'
import { runRunnerCli } from '../helpers/run-runner-cli.js'
import { filesUnder, secretHits } from '../helpers/secret-runs.js'

/** Typed into every secret field: a quote and a backslash, so that JSON escapes it differently from the typed text. */
const SECRET = 'q"Z!x\\#7%k'
const NAME = 'grace7'

interface PromptCase {
  readonly label: string
  readonly program: string
  readonly args: readonly string[]
  /** What each field's prompt shows, in order, and whether it is secret. */
  readonly fields: readonly { readonly prompt: string; readonly secret: boolean }[]
  readonly needs?: string
}

const named = (prompt: string) => ({ prompt, secret: false })
const hidden = (prompt: string) => ({ prompt, secret: true })
const CASES: readonly PromptCase[] = [
  {
    label: 'inquirer7',
    program: 'secret-prompt.mjs',
    args: ['inquirer7'],
    fields: [named('Your name'), hidden('Password')],
  },
  {
    label: 'inquirer7-mask',
    program: 'secret-prompt.mjs',
    args: ['inquirer7', '--mask'],
    fields: [named('Your name'), hidden('Password')],
  },
  {
    label: 'inquirer8',
    program: 'secret-prompt.mjs',
    args: ['inquirer8'],
    fields: [named('Your name'), hidden('Password')],
  },
  {
    label: 'inquirer8-mask',
    program: 'secret-prompt.mjs',
    args: ['inquirer8', '--mask'],
    fields: [named('Your name'), hidden('Password')],
  },
  {
    label: 'clack',
    program: 'secret-prompt.mjs',
    args: ['clack'],
    fields: [named('Your name'), hidden('Password')],
  },
  {
    label: 'prompts',
    program: 'secret-prompt.mjs',
    args: ['prompts'],
    fields: [named('Your name'), hidden('Password')],
  },
  {
    label: 'enquirer',
    program: 'secret-prompt.mjs',
    args: ['enquirer'],
    fields: [named('Your name'), hidden('Password')],
  },
  {
    label: 'getpass',
    program: 'getpass-login.py',
    args: [],
    fields: [named('Name:'), hidden('Password:')],
    needs: 'python3',
  },
  {
    label: 'read-s',
    program: 'read-secret.sh',
    args: [],
    fields: [named('Name:'), hidden('Token:')],
    needs: 'bash',
  },
  {
    label: 'ssh-keygen',
    program: 'ssh-passphrase.sh',
    args: [],
    fields: [hidden('Enter passphrase'), hidden('Enter same passphrase again')],
    needs: 'ssh-keygen',
  },
]

/** A person's pace (a key every 80 ms, after reading the prompt) and a fast typist's (10 ms). */
const PACES = [
  { label: 'human', gapMs: 80, readMs: 300 },
  { label: 'fast', gapMs: 10, readMs: 0 },
] as const

const available = (command: string): boolean => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0
const projects = fixtureProjects('vitest-basic', {
  links: ['@inquirer', 'inquirer-prompts-8', '@clack', 'prompts', 'enquirer'],
})
const project = projects()
mkdirSync(path.join(project, 'programs'))
for (const name of new Set(CASES.map((entry) => entry.program))) {
  copyFileSync(program(name), path.join(project, 'programs', name))
}
// Only the recorded tests run in this project.
rmSync(path.join(project, 'greet.test.mjs'))
rmSync(path.join(project, 'same-name.test.mjs'))
const written: string[] = []
afterAll(() => undefined)

/** Records `entry` with `rea record`, typing as `pace` says, and returns the scenario and the files written. */
async function record(entry: PromptCase, pace: (typeof PACES)[number]) {
  const base = `${entry.label}-${pace.label}`
  const files = {
    scenario: `${base}.scenario.json`,
    test: `${base}.test.mjs`,
    evidence: `${base}.capture.json`,
  }
  const person = new PersonAtTerminal(
    [
      process.execPath,
      CLI,
      'record',
      '--output',
      files.scenario,
      '--test',
      files.test,
      '--evidence',
      files.evidence,
      '--',
      `programs/${entry.program}`,
      ...entry.args,
    ],
    { cwd: project },
  )
  try {
    for (const field of entry.fields) {
      await person.waitFor(field.prompt, pace.readMs || 150)
      await person.type([...Array.from(field.secret ? SECRET : NAME), '\r'], pace.gapMs)
    }
    const exit = await person.exited
    expect(exit.code, person.output).toBe(0)
  } finally {
    person.kill()
    person.dispose()
  }
  written.push(...Object.values(files).map((file) => path.join(project, file)))
  const scenario = JSON.parse(
    readFileSync(path.join(project, files.scenario), 'utf8'),
  ) as ProcessScenarioInput
  return { scenario, output: person.output, files }
}

describe('rea record keeps every secret out of every file it writes', () => {
  for (const entry of CASES) {
    for (const pace of PACES) {
      const skip = entry.needs !== undefined && !available(entry.needs)
      if (skip) {
        console.log(`skipped ${entry.label}: ${entry.needs} is not installed (.ci/run installs it)`)
      }
      test.skipIf(skip)(
        `${entry.label}, typed at a ${pace.label} pace: one sensitive event per secret field, no 3-character run of it written`,
        async () => {
          const { scenario, output, files } = await record(entry, pace)
          const events = scenario.events as ScenarioEvent[]
          const inputs = events.filter((event) => event.type === 'input')
          expect(inputs, JSON.stringify(events)).toHaveLength(entry.fields.length)
          entry.fields.forEach((field, index) => {
            const event = inputs[index] as Extract<ScenarioEvent, { type: 'input' }>
            if (field.secret) {
              expect(event, JSON.stringify(event)).toMatchObject({
                sensitive: true,
                data: expect.stringMatching(/^<secret-\d>\r$/),
              })
            } else {
              expect(event, JSON.stringify(event)).toMatchObject({ data: `${NAME}\r` })
              expect(event).not.toHaveProperty('sensitive')
            }
          })
          expect(output).toContain('its final screen is the one you saw')
          expect(
            secretHits(
              Object.values(files).map((file) => path.join(project, file)),
              SECRET,
            ),
          ).toEqual([])
        },
      )
    }
  }

  test('the tests rea record wrote pass with the secret supplied, and the authorities they write hold no run of it', async () => {
    expect(written.length, 'recordings above').toBeGreaterThan(0)
    const script = path.join(REPO_ROOT, 'node_modules/vitest/vitest.mjs')
    const run = await runRunnerCli(script, ['run'], project, { REA_SECRET_1: SECRET, REA_SECRET_2: SECRET })
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(existsSync(path.join(project, '__captures__'))).toBe(true)
    expect(
      secretHits(
        filesUnder(project).filter((file) => !file.includes(`${path.sep}programs${path.sep}`)),
        SECRET,
      ),
    ).toEqual([])
  })
})
