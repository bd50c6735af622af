import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { compareCaptures, parseEvidence, type Evidence, type ProcessScenarioInput } from '../../src/index.js'
import { REPO_ROOT } from '../helpers/fixtures.js'
import { CLI, startCli } from '../helpers/run-cli.js'

/**
 * An authority holds on another machine: each command runs in two checkouts of the same project at paths of
 * different depth, each with its own HOME, TMPDIR, USER and LOGNAME (and, where this host lets a test make a UTS
 * namespace, its own host name), at different moments. With the documented placeholders and filters the two
 * captures are equivalent; the comparison text holds the tokens, never either machine's values.
 */

const PROJECT = path.join(REPO_ROOT, 'test/fixtures/projects/portable')
const PATHS = ['root', 'cwd', 'home', 'tmpdir'] as const

interface Machine {
  readonly clone: string
  readonly home: string
  readonly tmp: string
  readonly user: string
  /** Set where the capture runs in a UTS namespace of its own with this host name. */
  readonly hostname: string | undefined
}

let base: string
let machines: [Machine, Machine]
let namespaces: boolean

/** Whether this host lets a test give a command its own host name (`unshare -u`, as root). */
function canSetHostname(): boolean {
  const probe = spawnSync('unshare', ['-u', 'sh', '-c', 'hostname rea-probe && hostname'], {
    encoding: 'utf8',
  })
  return probe.status === 0 && probe.stdout.trim() === 'rea-probe'
}

function makeMachine(parts: string[], user: string, hostname: string | undefined): Machine {
  const top = path.join(base, ...parts)
  const clone = path.join(top, 'portable-clone')
  cpSync(PROJECT, clone, { recursive: true })
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(clone, 'node_modules'))
  const machine = {
    clone,
    home: path.join(top, `home-${user}`),
    tmp: path.join(top, `tmp-${user}`),
    user,
    hostname,
  }
  mkdirSync(machine.home)
  mkdirSync(machine.tmp)
  return machine
}

beforeAll(() => {
  base = mkdtempSync(path.join(tmpdir(), 'rea-machines-'))
  namespaces = canSetHostname()
  if (!namespaces) {
    console.log('machine-independence: unshare -u is not available here; both sides keep this host’s name')
  }
  machines = [
    makeMachine(['a'], 'ada', namespaces ? 'first-host' : undefined),
    makeMachine(['b', 'deeper', 'path'], 'bob', namespaces ? 'second-machine' : undefined),
  ]
})

afterAll(() => {
  rmSync(base, { recursive: true, force: true })
})

/** `rea capture-process` in the machine's checkout, with the machine's environment. */
async function captureOn(machine: Machine, name: string, scenario: ProcessScenarioInput): Promise<Evidence> {
  const scenarioPath = path.join(machine.clone, `${name}.scenario.json`)
  const output = path.join(machine.clone, `${name}.capture.json`)
  writeFileSync(scenarioPath, JSON.stringify(scenario))
  const env = { HOME: machine.home, TMPDIR: machine.tmp, USER: machine.user, LOGNAME: machine.user }
  const args = ['capture-process', scenarioPath, '--json', '--output', output]
  const run =
    machine.hostname === undefined
      ? startCli(args, { cwd: machine.clone, env, killAfterMs: 100_000 })
      : startCli([], {
          cwd: machine.clone,
          env,
          killAfterMs: 100_000,
          command: namespaced(machine.hostname, args),
        })
  const result = await run.result
  expect(result.code, result.stderr).toBe(0)
  return parseEvidence(JSON.parse(readFileSync(output, 'utf8')), output)
}

/** The CLI run inside a UTS namespace whose host name is `hostname`. */
function namespaced(hostname: string, args: string[]): string[] {
  return [
    'unshare',
    '-u',
    'sh',
    '-c',
    `hostname ${hostname} && exec "$@"`,
    'sh',
    process.execPath,
    CLI,
    ...args,
  ]
}

/** Captures the scenario on both machines and returns both, with the authority's comparison text. */
async function onBothMachines(name: string, scenario: ProcessScenarioInput) {
  const [authority, reconstruction] = await Promise.all(
    machines.map((machine) => captureOn(machine, name, scenario)),
  )
  const text = (evidence: Evidence) => evidence.terminal.chunks.map((chunk) => chunk.data).join('')
  const raw = (evidence: Evidence) =>
    evidence.terminal.chunks.map((chunk) => chunk.raw_data ?? chunk.data).join('')
  // What must hold across machines is everything but time: how long each step took depends on the load of the
  // machine running both CLI processes at once (in one CI run python's exit after SIGINT took 177 ms in one and
  // 758 ms in the other, beyond the tolerant policy), and the timing policies have tests of their own.
  const comparison = compareCaptures(authority as Evidence, reconstruction as Evidence, { timing: 'ignore' })
  return {
    authority: authority as Evidence,
    text: text(authority as Evidence),
    raw: raw(authority as Evidence),
    comparison,
  }
}

function expectEquivalent(comparison: ReturnType<typeof compareCaptures>): void {
  expect(comparison.verdict, comparison.terminal_diff?.unified ?? JSON.stringify(comparison.dimensions)).toBe(
    'equivalent',
  )
}

describe('an authority recorded on one machine holds on another', () => {
  test('a Node stack trace: CommonJS paths and ES-module file URLs', async () => {
    for (const file of ['crash.cjs', 'crash.mjs']) {
      const { comparison, text, raw } = await onBothMachines(file, {
        executable: 'node',
        arguments: [file],
        normalization: { placeholders: [...PATHS] },
      })
      expectEquivalent(comparison)
      expect(raw).toContain(machines[0].clone)
      expect(text).not.toContain(machines[0].clone)
      expect(text).toContain(file === 'crash.cjs' ? `[ROOT]/${file}:3` : `file://[ROOT]/${file}:3`)
    }
  })

  test('a vitest run: the root it prints, its durations (a colour between number and unit) and start time', async () => {
    const { comparison, text } = await onBothMachines('vitest', {
      executable: 'node',
      arguments: ['node_modules/vitest/vitest.mjs', 'run'],
      // Vitest redraws a live summary on a timer unless it runs in CI; the same value on both machines.
      environment: { CI: 'true', NO_COLOR: null },
      normalization: { placeholders: [...PATHS], filters: ['durations', 'timestamps'] },
      timeout_ms: 60_000,
    })
    expectEquivalent(comparison)
    expect(text).toMatch(/RUN .*\[ROOT\]/)
    expect(text).toContain('Start at \x1b[22m [TIMESTAMP]')
    expect(text).toMatch(/\(transform \[DURATION\], setup \[DURATION\]/)
  })

  test('node --test and python -m unittest: their durations', async () => {
    const node = await onBothMachines('node-test', {
      executable: 'node',
      arguments: ['--test', 'checks/plain.node-test.mjs'],
      normalization: { placeholders: [...PATHS], filters: ['durations'] },
    })
    expectEquivalent(node.comparison)
    expect(node.text).toContain('duration_ms [DURATION]')
    const python = await onBothMachines('unittest', {
      executable: 'python3',
      arguments: ['-m', 'unittest', '-v', 'checks/test_plain.py'],
      normalization: { placeholders: [...PATHS], filters: ['durations'] },
    })
    expectEquivalent(python.comparison)
    expect(python.text).toContain('Ran 1 test in [DURATION]')
  })

  test('git init, commit and log: the repository path, the commit hash and its date', async () => {
    const { comparison, text } = await onBothMachines('git', {
      executable: './git-log.sh',
      normalization: { placeholders: [...PATHS], filters: ['hex_ids', 'timestamps'] },
    })
    expectEquivalent(comparison)
    expect(text).toContain('Initialized empty Git repository in [ROOT]/repo/.git/')
    expect(text).toMatch(/commit \[HEX_ID\]/)
    expect(text).toMatch(/Date: +\[TIMESTAMP\]/)
  })

  test('mktemp -d: a random name in the temporary directory', async () => {
    const { comparison, text } = await onBothMachines('mktemp', {
      executable: 'mktemp',
      arguments: ['-d'],
      normalization: { placeholders: [...PATHS], filters: ['temp_names'] },
    })
    expectEquivalent(comparison)
    expect(text).toBe('[TMPDIR]/[TEMP_NAME]\r\n')
  })

  test('durations, clock times and uuids a program prints', async () => {
    for (const what of ['times', 'ids']) {
      const { comparison, text } = await onBothMachines(`volatile-${what}`, {
        executable: 'node',
        arguments: ['volatile.mjs', what],
        normalization: { filters: ['durations', 'timestamps', 'uuids'] },
      })
      expectEquivalent(comparison)
      expect(text).toContain(what === 'times' ? 'build: [DURATION]' : 'request [UUID]')
    }
    const date = await onBothMachines('date', {
      executable: 'date',
      environment: { TZ: 'UTC', LC_ALL: 'C' },
      normalization: { filters: ['timestamps'] },
    })
    expectEquivalent(date.comparison)
    expect(date.text).toBe('[TIMESTAMP]\r\n')
  })

  test('paths, home, temp dir, user and host name, in every spelling a program prints them', async () => {
    const paths = await onBothMachines('paths', {
      executable: 'node',
      arguments: ['volatile.mjs', 'paths'],
      normalization: { placeholders: [...PATHS] },
    })
    expectEquivalent(paths.comparison)
    expect(paths.text.split('\r\n')).toEqual([
      'cwd [ROOT]',
      'home [HOME]/.cache and tmp [TMPDIR]/',
      '{"cwd":"[ROOT]","config":"[HOME]/.config/app.json"}',
      'url file://[ROOT]/index.js',
      '',
    ])
    const who = await onBothMachines('who', {
      executable: 'node',
      arguments: ['volatile.mjs', 'who'],
      normalization: { placeholders: ['user', 'hostname'] },
    })
    expectEquivalent(who.comparison)
    expect(who.text).toMatch(namespaces ? /^user \[USER\] on \[HOSTNAME\]\r\n$/ : /^user \[USER\] on /)
  })

  test('ls -l, du -sh and tar -cvf over the same files in another checkout', async () => {
    for (const [name, executable, args] of [
      ['ls', 'ls', ['-l', 'data']],
      ['du', 'du', ['-sh', 'data']],
      ['tar', 'tar', ['-cvf', '/dev/null', 'data']],
    ] as const) {
      const { comparison } = await onBothMachines(name, {
        executable,
        arguments: [...args],
        environment: { TZ: 'UTC', LC_ALL: 'C' },
        normalization: { placeholders: [...PATHS], filters: ['timestamps'] },
      })
      expectEquivalent(comparison)
    }
  })

  test('npm init -y: the package file it wrote, in a new folder of each checkout', async () => {
    for (const machine of machines) {
      mkdirSync(path.join(machine.clone, 'fresh'))
    }
    const { comparison, text } = await onBothMachines('npm-init', {
      executable: 'npm',
      arguments: ['init', '-y'],
      working_directory: 'fresh',
      environment: { npm_config_update_notifier: 'false', NO_COLOR: '1' },
      normalization: { placeholders: [...PATHS] },
    })
    expectEquivalent(comparison)
    expect(text).toContain('Wrote to [CWD]/package.json')
  })

  test('python -m http.server 0: a random port, and its own log line times', async () => {
    const { comparison, text } = await onBothMachines('http-server', {
      executable: 'python3',
      arguments: ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1'],
      events: [{ type: 'signal', signal: 'SIGINT', after: { output: 'Serving HTTP' } }],
      normalization: { placeholders: [...PATHS], filters: ['timestamps'] },
      timeout_ms: 30_000,
    })
    expectEquivalent(comparison)
    expect(text).toContain('port <port> (http://127.0.0.1:<port>/)')
  })

  test('ps -o pid,cmd: process ids need a redaction of their own', async () => {
    const { comparison, text } = await onBothMachines('ps', {
      executable: 'ps',
      arguments: ['-o', 'pid,cmd'],
      normalization: { redactions: [{ regex: String.raw`^\s*(?<redacted>\d+) `, replacement: '[PID]' }] },
    })
    expectEquivalent(comparison)
    expect(text).toContain('[PID] ps -o pid,cmd')
  })
})
