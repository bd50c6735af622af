import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
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
import { CLI, startCli } from '../helpers/run-cli.js'
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

describe('the test rea record writes', () => {
  const projects = {
    vitest: fixtureProjects('vitest-basic'),
    jest: fixtureProjects('jest-basic', { links: ['@swc'] }),
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
    'runs under %s: asks for the secret, records the authority with it, then matches it in CI',
    async (runner) => {
      const project = projects[runner]()
      const { script, args, file } = runners[runner]
      copyFileSync(program('signup.py'), path.join(project, 'signup.py'))
      const outer = await captureProcess(
        {
          executable: process.execPath,
          arguments: [CLI, 'record', '--test', file, '--runner', runner, '--', './signup.py'],
          environment: { NO_COLOR: '1' },
          events: [
            { type: 'input', data: 'Ada\r', after: human('Name? ') },
            { type: 'input', data: 'hunter22\r', sensitive: true, after: human('Password: ') },
          ],
          timeout_ms: 90_000,
        },
        { root: project },
      )
      expect(outer.exit, stream(outer)).toMatchObject({ reason: 'exited', code: 0 })
      expect(readFileSync(path.join(project, file), 'utf8')).not.toContain('hunter22')
      const report = (result: { stdout: string; stderr: string }) => result.stdout + result.stderr

      const unset = await runRunnerCli(script, args, project)
      expect(unset.code, report(unset)).not.toBe(0)
      expect(report(unset)).toContain('Set REA_SECRET_1')

      // The recorded test's authority, beside those of the project's own tests.
      const recorded = () =>
        existsSync(path.join(project, '__captures__'))
          ? readdirSync(path.join(project, '__captures__'), { recursive: true }).filter((name) =>
              String(name).includes('signup'),
            )
          : []
      expect(recorded(), 'no authority without the secret').toEqual([])
      const first = await runRunnerCli(script, args, project, { REA_SECRET_1: 'hunter22' })
      expect(first.code, report(first)).toBe(0)
      expect(recorded().length, 'the authority recorded').toBeGreaterThan(0)
      const again = await runRunnerCli(script, args, project, { REA_SECRET_1: 'hunter22', CI: 'true' })
      expect(again.code, report(again)).toBe(0)
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
