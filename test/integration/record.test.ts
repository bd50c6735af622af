import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { afterAll, describe, expect, test } from 'vitest'
import {
  captureProcess,
  type Evidence,
  type ProcessScenarioInput,
  type ScenarioEvent,
  type TerminalFrame,
} from '../../src/index.js'
import { program, REPO_ROOT } from '../helpers/fixtures.js'
import { fixtureProjects } from '../helpers/fixture-project.js'
import { PersonAtTerminal } from '../helpers/person-at-terminal.js'
import { CLI, startCli } from '../helpers/run-cli.js'
import { filesUnder, secretHits } from '../helpers/secret-runs.js'
import { runRunnerCli } from '../helpers/run-runner-cli.js'

const directory = mkdtempSync(path.join(tmpdir(), 'rea-record-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const relative = (name: string) => path.relative(REPO_ROOT, program(name))
const stream = (evidence: Evidence) => evidence.terminal.chunks.map((chunk) => chunk.data).join('')
type Retained = Extract<TerminalFrame, { status: 'retained' }>
const finalLines = (evidence: Evidence): string[] => {
  const final = evidence.terminal.frames.findLast(
    (frame): frame is Retained => frame.trigger === 'final' && frame.status === 'retained',
  )
  expect(final, 'a final frame').toBeDefined()
  return (final as Retained).lines
}

/**
 * Plays the person: REA captures `rea record <flags> -- <command>` in a PTY and types into it with waits, a
 * human's pause (quiet_ms) before each keystroke. Resolves with the outer capture and the scenario written.
 */
async function recordWithPerson(
  name: string,
  command: string[],
  events: ProcessScenarioInput['events'],
  flags: string[] = [],
): Promise<{ outer: Evidence; scenario: ProcessScenarioInput; text: string; output: string }> {
  const output = path.join(directory, `${name}.scenario.json`)
  const outer = await captureProcess(
    {
      executable: process.execPath,
      arguments: [CLI, 'record', '--output', output, ...flags, '--', ...command],
      environment: { NO_COLOR: '1' },
      events,
      timeout_ms: 90_000,
    },
    { root: REPO_ROOT },
  )
  expect(outer.exit, stream(outer)).toMatchObject({ reason: 'exited', code: 0 })
  const text = readFileSync(output, 'utf8')
  return { outer, scenario: JSON.parse(text) as ProcessScenarioInput, text, output }
}

const human = (after: string) => ({ screen: after, quiet_ms: 300 })

/** Replays a recorded scenario with `secret` put back in place of every sensitive event's placeholder. */
const replayWithSecret = (scenario: ProcessScenarioInput, secret: string): Promise<Evidence> =>
  captureProcess(
    {
      ...scenario,
      events: (scenario.events as ScenarioEvent[]).map((event) =>
        'sensitive' in event && event.sensitive ? { ...event, data: secret } : event,
      ),
    },
    { root: REPO_ROOT },
  )

describe('rea record', () => {
  test('records a sign-up with a password typed with echo off: every input waits, the secret stays out', async () => {
    const evidencePath = path.join(directory, 'signup.capture.json')
    const testPath = path.join(directory, 'signup.test.mjs')
    const { outer, scenario, text } = await recordWithPerson(
      'signup',
      [relative('signup.py')],
      [
        { type: 'input', data: 'Ada\r', after: human('Name? ') },
        { type: 'input', data: 'hunter22\r', sensitive: true, after: human('Password: ') },
      ],
      ['--evidence', evidencePath, '--test', testPath],
    )
    expect(scenario.executable).toBe(relative('signup.py'))
    const events = scenario.events as ScenarioEvent[]
    expect(events).toEqual([
      { type: 'input', after: { screen: 'Name? ', quiet_ms: 100 }, data: 'Ada\r' },
      {
        type: 'input',
        after: { screen: 'Password: ', quiet_ms: 100 },
        sensitive: true,
        data: '<secret-1>\r',
      },
    ])
    expect(text).not.toContain('hunter22')
    expect(readFileSync(testPath, 'utf8')).toContain("secret('REA_SECRET_1')")
    expect(readFileSync(testPath, 'utf8')).not.toContain('hunter22')
    expect(stream(outer)).toContain('its final screen is the one you saw')
    // The person's screen: rea's first line, then the program's rows.
    const seen = finalLines(outer).slice(1, 4)
    expect(seen).toEqual(['Name? Ada', 'Password:', 'Welcome, Ada! Your password has 8 characters.'])
    // A replay with the secret put back reaches the same final screen.
    const replay = await replayWithSecret(scenario, 'hunter22\r')
    expect(replay.interactions.map((interaction) => interaction.outcome)).toEqual([
      'dispatched',
      'dispatched',
    ])
    expect(finalLines(replay).slice(0, 3)).toEqual(seen)
  })

  test('records a password the program reads itself in raw mode, drawing * per key, as a sensitive event', async () => {
    const { scenario, text } = await recordWithPerson(
      'masked',
      [relative('masked-login.mjs')],
      [
        { type: 'input', data: 'ada\r', after: human('User: ') },
        { type: 'input', data: 'hun', after: human('? Password: ') },
        { type: 'input', data: 'ter22\r', after: human('? Password: ***') },
      ],
    )
    const events = scenario.events as ScenarioEvent[]
    expect(events).toEqual([
      { type: 'input', after: { screen: 'User: ', quiet_ms: 100 }, data: 'ada\r' },
      {
        type: 'input',
        after: { screen: '? Password: ', quiet_ms: 100 },
        sensitive: true,
        data: '<secret-1>\r',
      },
    ])
    expect(text).not.toContain('hunter22')
    const replay = await replayWithSecret(scenario, 'hunter22\r')
    expect(stream(replay)).toContain('Hello ada, your password has 8 characters.')
  })

  test('records a full-screen menu driven with arrow keys as named keys, each after its redraw', async () => {
    const { outer, scenario } = await recordWithPerson(
      'menu',
      [relative('fruit-menu.mjs')],
      [
        { type: 'input', keys: ['Down'], after: human('> Apple') },
        { type: 'input', keys: ['Down'], after: human('> Banana') },
        { type: 'input', keys: ['Up'], after: human('> Cherry') },
        { type: 'input', keys: ['Enter'], after: human('> Banana') },
      ],
    )
    const events = scenario.events as ScenarioEvent[]
    expect(
      events.map((event) => ('keys' in event ? event.keys : 'data' in event ? event.data : undefined)),
    ).toEqual([['Down'], ['Down'], ['Up'], '\r'])
    for (const event of events) {
      expect(event.after?.screen, JSON.stringify(event)).toBeDefined()
      expect(event.at_ms).toBeUndefined()
    }
    expect(stream(outer)).toContain('You picked Banana.')
    const replay = await captureProcess(scenario, { root: REPO_ROOT })
    expect(replay.interactions.every((interaction) => interaction.outcome === 'dispatched')).toBe(true)
    expect(finalLines(replay)[0]).toBe('You picked Banana.')
  })

  test('records a resize of the person’s terminal as a resize event the replay performs', async () => {
    const { scenario } = await recordWithPerson(
      'resize',
      [relative('size-reporter.mjs')],
      [
        { type: 'resize', columns: 100, rows: 30, after: human('start 24x80') },
        { type: 'input', data: 'q', after: human('resized 30x100') },
      ],
    )
    expect(scenario.terminal).toEqual({ columns: 80, rows: 24 })
    expect(scenario.events).toEqual([
      { type: 'resize', after: { screen: 'start 24x80', quiet_ms: 100 }, columns: 100, rows: 30 },
      { type: 'input', after: { screen: 'resized 30x100', quiet_ms: 100 }, data: 'q' },
    ])
    const replay = await captureProcess(scenario, { root: REPO_ROOT })
    expect(stream(replay)).toContain('resized 30x100')
    expect(replay.exit).toMatchObject({ reason: 'exited', code: 0 })
  })

  test('never waits for a duration the program printed, and proposes the filter for it', async () => {
    const { outer, scenario } = await recordWithPerson(
      'duration',
      [relative('duration-prompt.mjs')],
      [{ type: 'input', data: 'yes\r', after: human('Continue? ') }],
    )
    const [event] = scenario.events as ScenarioEvent[]
    expect(event?.after?.screen).toBeDefined()
    expect(event?.after?.screen).not.toMatch(/\d/)
    expect(event?.after?.screen).toContain('Continue? ')
    expect(scenario.normalization).toEqual({ filters: ['durations'] })
    expect(stream(outer)).toContain('proposed normalization')
    // The replay runs on another duration and still answers the prompt.
    const replay = await captureProcess(scenario, { root: REPO_ROOT })
    expect(stream(replay)).toContain('Answer: yes')
  })
})

/** Records the Inquirer sign-up (name, plan with the arrow keys, password) in `cwd` as a person types it. */
async function recordSignup(cwd: string, flags: readonly string[], command: readonly string[], gapMs = 60) {
  const person = new PersonAtTerminal([process.execPath, CLI, 'record', ...flags, '--', ...command], { cwd })
  try {
    await person.waitFor('Pick a handle', 300)
    await person.type([...Array.from('grace7'), '\r'], gapMs)
    await person.waitFor('Choose a plan', 300)
    await person.type(['\u001b[B', '\u001b[B', '\u001b[A', '\r'], gapMs)
    await person.waitFor('Password', 300)
    await person.type([...Array.from(SIGNUP_SECRET), '\r'], gapMs)
    const exit = await person.exited
    expect(exit.code, person.output).toBe(0)
    return person.output
  } finally {
    person.kill()
    person.dispose()
  }
}
const SIGNUP_SECRET = 'sw0rd#F1sh!'

describe('rea record on a sign-up built with @inquirer/prompts', () => {
  test('records one event per answer, the password as one sensitive event, named after the program, and the replay ends on the screen seen', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'rea-record-signup-'))
    try {
      copyFileSync(program('signup.mjs'), path.join(cwd, 'signup.mjs'))
      symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(cwd, 'node_modules'))
      const output = await recordSignup(
        cwd,
        ['--test', 'signup.test.mjs', '--evidence', 'signup.capture.json'],
        ['node', 'signup.mjs'],
      )
      // Named after the script, not `node`.
      const scenario = JSON.parse(
        readFileSync(path.join(cwd, 'signup.scenario.json'), 'utf8'),
      ) as ProcessScenarioInput
      expect(scenario.arguments).toEqual(['signup.mjs'])
      const events = scenario.events as ScenarioEvent[]
      expect(events.length, JSON.stringify(events)).toBeLessThanOrEqual(4)
      expect(events).toEqual([
        { type: 'input', after: { screen: '? Pick a handle', quiet_ms: 100 }, data: 'grace7\r' },
        {
          type: 'input',
          after: { screen: '? Choose a plan', quiet_ms: 100 },
          keys: ['Down', 'Down', 'Up', 'Enter'],
        },
        {
          type: 'input',
          after: { screen: '? Password [input is masked]', quiet_ms: 100 },
          sensitive: true,
          data: '<secret-1>\r',
        },
      ])
      expect(readFileSync(path.join(cwd, 'signup.test.mjs'), 'utf8')).toContain('test("signup as recorded"')
      expect(output).toContain('its final screen is the one you saw')
      expect(output).toContain('1 kept out as a secret')
      expect(output).toMatch(
        /events\[2\] \(after "\? Password \[input is masked\]"\): the program drew nothing/,
      )
      expect(secretHits(filesUnder(cwd), SIGNUP_SECRET)).toEqual([])
    } finally {
      rmSync(cwd, { recursive: true, force: true })
    }
  })
})

describe('the test rea record writes', () => {
  const projects = {
    vitest: fixtureProjects('vitest-basic', { links: ['@inquirer'] }),
    jest: fixtureProjects('jest-basic', { links: ['@swc', '@inquirer'] }),
  }
  const runners = {
    vitest: {
      script: path.join(REPO_ROOT, 'node_modules/vitest/vitest.mjs'),
      args: ['run'],
      file: 'signup.test.mjs',
    },
    jest: { script: path.join(REPO_ROOT, 'node_modules/jest/bin/jest.js'), args: [], file: 'signup.test.ts' },
  }

  test.for(['vitest', 'jest'] as const)(
    'runs under %s: fails clearly without the secret, then passes three times in a row with it, writing no run of it',
    async (runner) => {
      const project = projects[runner]()
      const { script, args, file } = runners[runner]
      copyFileSync(program('signup.mjs'), path.join(project, 'signup.mjs'))
      await recordSignup(project, ['--test', file, '--runner', runner], ['./signup.mjs'])
      const report = (result: { stdout: string; stderr: string }) => result.stdout + result.stderr

      const unset = await runRunnerCli(script, args, project)
      expect(unset.code, report(unset)).not.toBe(0)
      expect(report(unset)).toContain("Set REA_SECRET_1 to the secret typed at the recording's prompt")

      // The recorded test's authority, beside those of the project's own tests.
      const recorded = () =>
        existsSync(path.join(project, '__captures__'))
          ? readdirSync(path.join(project, '__captures__'), { recursive: true }).filter((name) =>
              String(name).includes('signup as recorded'),
            )
          : []
      expect(recorded(), 'no authority without the secret').toEqual([])
      for (const [index, environment] of [{}, { CI: 'true' }, { CI: 'true' }].entries()) {
        const run = await runRunnerCli(script, args, project, { REA_SECRET_1: SIGNUP_SECRET, ...environment })
        expect(run.code, `run ${index + 1}: ${report(run)}`).toBe(0)
      }
      expect(recorded().length, 'the authority recorded').toBeGreaterThan(0)
      expect(secretHits(filesUnder(project), SIGNUP_SECRET)).toEqual([])
    },
  )
})

describe('rea record and signals', () => {
  test('forwards SIGTERM to the program, still writes the scenario and exits 143', async () => {
    const output = path.join(directory, 'signal.scenario.json')
    const outer = await captureProcess(
      {
        executable: process.execPath,
        arguments: [CLI, 'record', '--output', output, '--', relative('signup.py')],
        events: [
          { type: 'input', data: 'Ada\r', after: human('Name? ') },
          { type: 'signal', signal: 'SIGTERM', after: human('Password: ') },
        ],
        timeout_ms: 90_000,
      },
      { root: REPO_ROOT },
    )
    expect(outer.exit, stream(outer)).toMatchObject({ reason: 'exited', code: 143 })
    const scenario = JSON.parse(readFileSync(output, 'utf8')) as ProcessScenarioInput
    expect(scenario.events).toEqual([
      { type: 'input', after: { screen: 'Name? ', quiet_ms: 100 }, data: 'Ada\r' },
    ])
  })
})

describe('rea record and the person’s terminal', () => {
  // The modes `stty -a` prints, each a word: `-icanon` when line mode is off.
  const mode = (output: string, name: string): boolean | undefined =>
    new RegExp(`(?:^|[\\s;])-${name}(?=[\\s;]|$)`, 'm').test(output)
      ? false
      : new RegExp(`(?:^|[\\s;])${name}(?=[\\s;]|$)`, 'm').test(output)
        ? true
        : undefined
  const expectLineModeWithEcho = (modes: string) => {
    expect(mode(modes, 'icanon'), modes).toBe(true)
    expect(mode(modes, 'echo'), modes).toBe(true)
    expect(mode(modes, 'isig'), modes).toBe(true)
  }

  test('gives the terminal back in line mode with echo as soon as the session ends, before REA’s process exits', async () => {
    const outer = await captureProcess(
      {
        executable: process.execPath,
        arguments: [relative('recorder-gives-back.mjs')],
        events: [{ type: 'input', data: 'x\r', after: human('recording sh') }],
        timeout_ms: 90_000,
      },
      { root: REPO_ROOT },
    )
    const text = stream(outer)
    expect(text).toContain('recorded; stdin raw: false')
    expectLineModeWithEcho(text.slice(text.indexOf('recorded;')))
  })

  test('gives the terminal back when rea record is ended by SIGTERM', async () => {
    const output = path.join(directory, 'modes.scenario.json')
    const outer = await captureProcess(
      {
        executable: 'sh',
        arguments: [
          '-c',
          '"$0" "$1" record --output "$2" -- sh -c "$3"; echo "recorder exited $?"; stty -a',
          process.execPath,
          CLI,
          output,
          'read line; kill -TERM $PPID; sleep 30',
        ],
        // rea's first line wraps at 80 columns: the wait is on its start.
        events: [{ type: 'input', data: 'x\r', after: human('rea: recording') }],
        timeout_ms: 90_000,
      },
      { root: REPO_ROOT },
    )
    const text = stream(outer)
    expect(text).toContain('recorder exited 143')
    expectLineModeWithEcho(text.slice(text.indexOf('recorder exited')))
  })
})

describe('rea record arguments', () => {
  test.for([
    { args: ['record', '--', 'true'], message: 'needs a terminal' },
    { args: ['record'], message: 'needs the command to record' },
    { args: ['record', '--runner', 'jest', '--', 'true'], message: '--runner chooses the runner' },
    {
      args: ['record', '--test', 'x.test.mjs', '--runner', 'mocha', '--', 'true'],
      message: '--runner must be one of vitest, jest',
    },
    { args: ['record', '--output', directory, '--', 'true'], message: 'Invalid --output' },
  ])('refuses $args with exit 3 and a clear message, starting nothing', async ({ args, message }) => {
    const result = await startCli(args, { killAfterMs: 60_000 }).result
    expect(result.stderr).toContain(message)
    expect(result.code).toBe(3)
  })

  test('prints the help of rea record, and leaves --help after -- to the recorded command', () => {
    const own = spawnSync(process.execPath, [CLI, 'record', '--help'], { encoding: 'utf8' })
    expect(own.stdout).toContain('Usage: rea record')
    const theirs = spawnSync(process.execPath, [CLI, 'record', '--', 'true', '--help'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    expect(theirs.stderr).toContain('needs a terminal')
    expect(theirs.status).toBe(3)
  })
})
