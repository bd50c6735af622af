import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { parseEvidenceText } from '../../src/front-end.js'
import { program, REPO_ROOT } from '../helpers/fixtures.js'
import { CLI, runCli, startCli } from '../helpers/run-cli.js'
import { createSpecialFiles, type SpecialFiles } from '../helpers/special-files.js'
import { rawControlCharacters } from '../helpers/control-characters.js'

let directory: string
const scenarioFile = (name: string, scenario: unknown): string => {
  const file = path.join(directory, name)
  writeFileSync(file, typeof scenario === 'string' ? scenario : JSON.stringify(scenario))
  return file
}
beforeAll(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'rea-cli-'))
})
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const noStackTrace = (text: string) => expect(text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m)

describe('rea capture-process', () => {
  test('prints Evidence as JSON with --json and exits 0 whatever the target did', async () => {
    const file = scenarioFile('exit3.json', { executable: program('exit-with.sh'), arguments: ['3', 'bye'] })
    const result = await runCli(['capture-process', file, '--json'], { cwd: directory })
    expect(result.code).toBe(0)
    const evidence = parseEvidenceText(result.stdout, 'stdout')
    expect(evidence.exit).toMatchObject({ code: 3, reason: 'exited' })
    expect(evidence.host.capture_root).toBe(directory)
  })

  test('writes one rea_progress JSON object per stderr line and ends with the terminal record', async () => {
    const file = scenarioFile('echo.json', { executable: 'echo', arguments: ['progress-child-output'] })
    const result = await runCli(['capture-process', file, '--json'], { cwd: directory })
    const records = result.stderr
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { rea_progress: Record<string, unknown> }).rea_progress)
    expect(records[0]).toMatchObject({ phase: 'prepare', total: null, sequence: 1 })
    expect(records.at(-1)).toMatchObject({ phase: 'cleanup', terminal: true, disposition: 'exited' })
    expect(result.stderr).not.toContain('progress-child-output')
  })

  test('prints TOON by default, a summary with --format summary, and nothing with --no-progress on stderr', async () => {
    const file = scenarioFile('hello.json', { executable: 'echo', arguments: ['hello'] })
    const toon = await runCli(['capture-process', file, '--no-progress'], { cwd: directory })
    expect(toon.stdout.startsWith('format: rea.process-capture.evidence\n')).toBe(true)
    expect(toon.stderr).toBe('')
    const summary = await runCli(['capture-process', file, '--format', 'summary'], { cwd: directory })
    expect(summary.stdout).toContain('REA capture echo hello')
    expect(summary.stdout).toContain('│hello│')
    // Each event's outcome, a dispatch and a skip with its cause.
    const waited = scenarioFile('waited.json', {
      executable: 'bash',
      arguments: ['-c', 'read -r line; echo "got $line"; sleep 30'],
      events: [
        { type: 'input', data: 'hi\r', after: { output: 'never', within_ms: 200 } },
        { type: 'input', data: 'yo\r', after: { screen: 'never shown' } },
      ],
      timeout_ms: 1500,
    })
    const events = await runCli(['capture-process', waited, '--format', 'summary'], { cwd: directory })
    expect(events.stdout).toMatch(
      /events {4}0 input skipped at [\d,]+ ms: wait_timed_out \[wait_timed_out\] \(waited for output "never", never met\)\n {12}1 input skipped at [\d,]+ ms: REA's timeout_ms \(1500 ms\) ended the run before the event was due \[deadline\] \(waited for screen "never shown", never met\)/,
    )
  })

  test('writes the document to --output and leaves stdout empty', async () => {
    const file = scenarioFile('out.json', { executable: 'echo', arguments: ['saved'] })
    const output = path.join(directory, 'capture.json')
    const result = await runCli(['capture-process', file, '--json', '--output', output, '--no-progress'], {
      cwd: directory,
    })
    expect(result).toMatchObject({ code: 0, stdout: '' })
    expect(parseEvidenceText(readFileSync(output, 'utf8')).exit.code).toBe(0)
  })

  test.for([
    ['an empty scenario file', '', 'truncated it before REA read it'],
    ['a file that is not JSON', '{ nope', 'is not valid JSON'],
    [
      'a scenario breaking the rules',
      JSON.stringify({ executable: 'echo', terminal: { columns: 1 } }),
      'terminal.columns: must be ≥ 2',
    ],
  ])('rejects %s with exit 3 and no stack trace', async ([, content, message]) => {
    const file = scenarioFile('bad.json', content)
    const result = await runCli(['capture-process', file], { cwd: directory })
    expect(result.code).toBe(3)
    expect(result.stderr).toContain(message)
    expect(result.stdout).toBe('')
    noStackTrace(result.stderr)
  })

  test('starts its supervisor before the capture command loads and reads its scenario, so their start-ups overlap', async () => {
    // A preload in the CLI's process notes, when the command opens its scenario, whether the supervisor's waiter
    // already runs: a child of the CLI's process named rea-supervisor (started through REA's addon, which a hook on
    // child_process would not see).
    const log = path.join(directory, 'start-order.log')
    const hook = path.join(directory, 'start-order.cjs')
    writeFileSync(
      hook,
      `const fs = require('node:fs')
const children = (name) => fs.readdirSync('/proc').filter((pid) => /^\\d+$/.test(pid)).filter((pid) => {
  try {
    const stat = fs.readFileSync('/proc/' + pid + '/stat', 'latin1')
    return stat.includes('(' + name + ')') && stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] === String(process.pid)
  } catch {
    return false
  }
})
const openSync = fs.openSync
fs.openSync = function (file, ...rest) {
  if (String(file).endsWith('true.json')) {
    fs.appendFileSync(${JSON.stringify(log)}, 'scenario opened, waiters running: ' + children('rea-supervisor').length + '\\n')
  }
  return openSync.call(this, file, ...rest)
}
`,
    )
    const result = await runCli(
      ['capture-process', scenarioFile('true.json', { executable: 'true' }), '--json', '--no-progress'],
      { env: { NODE_OPTIONS: `--require ${hook}` } },
    )
    expect(result.code).toBe(0)
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['scenario opened, waiters running: 1'])
  })

  test('rejects a missing scenario file and an output file that is the scenario', async () => {
    const missing = await runCli(['capture-process', path.join(directory, 'missing.json')])
    expect(missing.code).toBe(3)
    expect(missing.stderr).toContain('could not be read (ENOENT)')
    const file = scenarioFile('same.json', { executable: 'echo' })
    const same = await runCli(['capture-process', file, '--output', file])
    expect(same.code).toBe(3)
    expect(readFileSync(file, 'utf8')).toBe('{"executable":"echo"}')
  })

  test.for([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('writes Evidence and exits %s → %i when cancelled by a signal', async ([signal, code]) => {
    const file = scenarioFile(`cancel-${signal}.json`, { executable: 'sleep', arguments: ['30'] })
    const run = startCli(['capture-process', file, '--json'], { cwd: directory })
    await run.stderrLine((line) => line.includes('"phase":"running"'))
    run.child.kill(signal)
    const result = await run.result
    expect(result.code).toBe(code)
    expect(parseEvidenceText(result.stdout)).toMatchObject({
      disposition: 'cancelled',
      exit: { reason: 'cancelled' },
    })
  })
})

describe('rea compare-process-captures timing', () => {
  test('a prompt shown 0.6 s later is equivalent by default (times count from the answered prompt) and different under strict', async () => {
    const late = (delay: string) => ({
      executable: program('delayed-prompt.mjs'),
      arguments: ['--delay', delay],
      events: [{ type: 'input', data: 'Ada\r', after: { output: 'Name? ' } }],
    })
    const [fast, slow] = await Promise.all(
      [
        ['fast', '20'],
        ['slow', '650'],
      ].map(async ([name, delay]) => {
        const file = scenarioFile(`${name}-prompt.json`, late(delay as string))
        const output = path.join(directory, `${name}-prompt.capture.json`)
        const result = await runCli(['capture-process', file, '--json', '--output', output], {
          cwd: directory,
        })
        expect(result.code, result.stderr).toBe(0)
        return output
      }),
    )
    const tolerant = await runCli(['compare-process-captures', fast as string, slow as string], {
      cwd: directory,
    })
    expect(tolerant.code, tolerant.stdout).toBe(0)
    expect(tolerant.stdout).toContain(
      'timing          tolerant (times differ beyond 500 ms and 75 % of the larger)',
    )
    const strict = await runCli(
      ['compare-process-captures', fast as string, slow as string, '--timing', 'strict'],
      {
        cwd: directory,
      },
    )
    expect(strict.code, strict.stdout).toBe(1)
    expect(strict.stdout).toMatch(/the root exited at a different time/)
  })
})

describe('signals before the capture started', () => {
  test('a SIGHUP that arrives as REA installs its handler, while it loads, cancels with Evidence and nothing run', async () => {
    // A preload in the CLI's process sends the process SIGHUP the moment REA adds its SIGHUP listener, before the
    // command's bundle is even required: the signal is then certain to come long before the launch, however fast
    // REA loads (sending it from outside, as soon as /proc showed the handler, raced REA's start-up on a busy
    // machine once that start-up got shorter).
    const hook = path.join(directory, 'early-hangup.cjs')
    writeFileSync(
      hook,
      `const on = process.on
process.on = function (name, listener) {
  const result = on.call(this, name, listener)
  if (name === 'SIGHUP') {
    process.on = on
    process.kill(process.pid, 'SIGHUP')
  }
  return result
}
`,
    )
    const marker = path.join(directory, 'early-hangup')
    const file = scenarioFile('early.json', { executable: program('touch-marker.mjs'), arguments: [marker] })
    const result = await runCli(['capture-process', file, '--json', '--no-progress'], {
      cwd: directory,
      env: { NODE_OPTIONS: `--require ${hook}` },
    })
    expect(result.code).toBe(129)
    // REA still had its modules and the scenario to load, with the event loop turning in between.
    expect(parseEvidenceText(result.stdout)).toMatchObject({
      disposition: 'cancelled',
      exit: { reason: 'cancelled' },
      process: { root: null },
    })
    expect(existsSync(marker)).toBe(false)
  })
})

describe('--output', () => {
  const marker = () => path.join(directory, 'side-effect')
  const touching = () =>
    scenarioFile('touch.json', { executable: program('touch-marker.mjs'), arguments: [marker()] })
  /** Another name for the scenario file, made by `link` (a symlink or a hard link). */
  const linked = (link: (target: string, path: string) => void): string => {
    const other = path.join(directory, `scenario-${link.name}.json`)
    rmSync(other, { force: true })
    link(touching(), other)
    return other
  }

  test.for([
    ['a directory', (): string => directory, 'is a directory [not_a_directory]'],
    ['a missing folder', (): string => path.join(directory, 'no/such/folder/out.json'), '[directory_exists]'],
    ['an empty path', (): string => '', 'must name a file: got an empty path [minimum]'],
    ['an unwritable file', (): string => '/proc/sys/kernel/ostype', 'is not writable (EACCES) [writable]'],
    ['the scenario through a symlink', (): string => linked(symlinkSync), 'is the same file as the scenario'],
    ['the scenario through a hard link', (): string => linked(linkSync), 'is the same file as the scenario'],
  ] as const)('refuses %s before anything runs (exit 3)', async ([, output, message]) => {
    rmSync(marker(), { force: true })
    const scenario = touching()
    const before = readFileSync(scenario, 'utf8')
    const result = await runCli(['capture-process', scenario, '--output', output()], { cwd: directory })
    expect(result).toMatchObject({ code: 3, stdout: '' })
    expect(result.stderr).toContain('Invalid --output (1 problem); nothing was run:')
    expect(result.stderr).toContain(message)
    expect(existsSync(marker())).toBe(false)
    expect(readFileSync(scenario, 'utf8')).toBe(before)
  })

  test('refuses a writable file in a folder it cannot write to: the file is replaced through a temporary file there', () => {
    const folder = path.join(directory, 'read-only-folder')
    mkdirSync(folder)
    const output = path.join(folder, 'capture.json')
    writeFileSync(output, 'old')
    chmodSync(output, 0o666)
    chmodSync(folder, 0o555)
    // Root writes anywhere; without these capabilities, permissions apply as for any user.
    const caps = '-dac_override,-dac_read_search'
    const result = spawnSync(
      'setpriv',
      [
        `--bounding-set=${caps}`,
        `--inh-caps=${caps}`,
        process.execPath,
        CLI,
        'capture-process',
        touching(),
      ].concat(['--output', output]),
      { cwd: directory, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
    )
    chmodSync(folder, 0o755)
    expect(result.status, result.stderr).toBe(3)
    expect(result.stderr).toContain(`REA replaces ${output} whole, through a temporary file in that folder`)
    expect(readFileSync(output, 'utf8')).toBe('old')
    expect(existsSync(marker())).toBe(false)
  })

  test('compare-process-captures refuses an output that is one of its inputs', async () => {
    const evidence = path.join(directory, 'evidence-copy.json')
    writeFileSync(evidence, readFileSync(path.join(REPO_ROOT, 'test/fixtures/evidence/v1-job.capture.json')))
    const link = path.join(directory, 'evidence-link.json')
    rmSync(link, { force: true })
    symlinkSync(evidence, link)
    const result = await runCli(['compare-process-captures', evidence, evidence, '--output', link])
    expect(result.code).toBe(3)
    expect(result.stderr).toContain('is the same file as the authority')
  })

  test('keeps the Evidence in a private file and exits 74 when the disk is full after the run', async () => {
    rmSync(marker(), { force: true })
    const result = await runCli(['capture-process', touching(), '--output', '/dev/full', '--no-progress'], {
      cwd: directory,
    })
    expect(result.code).toBe(74)
    expect(existsSync(marker())).toBe(true)
    expectSavedEvidence(result.stderr, '/dev/full (ENOSPC: no space left on device)')
  })

  test('keeps the Evidence when stdout is closed before it is written (a hung-up terminal or pipe)', async () => {
    const run = startCli(['capture-process', touching(), '--json'], { cwd: directory })
    run.child.stdout?.destroy()
    const result = await run.result
    expect(result.code).toBe(74)
    expectSavedEvidence(result.stderr, 'stdout (EPIPE: broken pipe)')
  })

  test('a closed stderr does not end a capture: its progress records are dropped (EPIPE is ignored)', async () => {
    rmSync(marker(), { force: true })
    const output = path.join(directory, 'closed-stderr.json')
    const run = startCli(['capture-process', touching(), '--json', '--output', output], { cwd: directory })
    run.child.stderr?.destroy()
    const result = await run.result
    expect(result.code).toBe(0)
    expect(parseEvidenceText(readFileSync(output, 'utf8')).disposition).toBe('exited')
    expect(existsSync(marker())).toBe(true)
  })
})

/** The error names where the Evidence could not go and the private file it was saved to instead. */
function expectSavedEvidence(stderr: string, failure: string): void {
  expect(stderr).toContain(`The capture ran, but its Evidence could not be written to ${failure}.`)
  const saved = /It was saved as JSON to (\S+capture\.json)\./.exec(stderr)?.[1]
  expect(saved, stderr).toBeDefined()
  try {
    expect(parseEvidenceText(readFileSync(saved!, 'utf8')).disposition).toBe('exited')
  } finally {
    rmSync(path.dirname(saved!), { recursive: true, force: true })
  }
}

describe('input files', () => {
  // Larger than every input limit (the Evidence limit is the largest), and sparse: it takes no disk space.
  const OVERSIZED_BYTES = 600 * 1024 * 1024
  let special: SpecialFiles
  const evidence = path.join(REPO_ROOT, 'test/fixtures/evidence/v1-job.capture.json')
  const trace = () =>
    scenarioFile('trace.json', {
      format: 'rea.process-capture.trace-spec',
      format_version: 1,
      events: [],
      order: [],
    })
  beforeAll(async () => {
    special = await createSpecialFiles(directory, OVERSIZED_BYTES)
  })
  afterAll(() => special.close())

  const positions = [
    ['the scenario', (file: string) => ['capture-process', file]],
    ['the authority', (file: string) => ['compare-process-captures', file, evidence]],
    ['the reconstruction', (file: string) => ['compare-process-captures', evidence, file]],
    ['the trace specification', (file: string) => ['compare-process-captures', evidence, evidence, file]],
  ] as const

  test.for(positions)(
    'refuses a FIFO, socket, device, directory or oversized file as %s, naming what it is',
    async ([, args]) => {
      for (const [kind, file, message] of special.cases) {
        const result = await runCli(args(file), { cwd: directory, killAfterMs: 20_000 })
        expect(result, kind).toMatchObject({ code: 3, stdout: '' })
        expect(result.stderr, kind).toContain(`${file} ${message}`)
        noStackTrace(result.stderr)
      }
    },
  )

  test('names the operating system error of a file that cannot be opened', async () => {
    const result = await runCli(['capture-process', path.join(directory, 'missing.json')])
    expect(result.stderr).toContain('could not be read (ENOENT): no such file or directory; nothing was run.')
  })

  test('accepts a UTF-8 byte-order mark before a scenario, Evidence and a trace specification', async () => {
    const bom = '\uFEFF'
    const scenario = scenarioFile(
      'bom.json',
      `${bom}${JSON.stringify({ executable: 'echo', arguments: ['bom'] })}`,
    )
    const captured = await runCli(['capture-process', scenario, '--json', '--no-progress'], {
      cwd: directory,
    })
    expect(captured.code).toBe(0)
    const saved = scenarioFile('bom-evidence.json', `${bom}${captured.stdout}`)
    const spec = scenarioFile('bom-trace.json', `${bom}${readFileSync(trace(), 'utf8')}`)
    const compared = await runCli(['compare-process-captures', saved, saved, spec, '--json'], {
      cwd: directory,
    })
    expect(compared.stderr).toBe('')
    expect(JSON.parse(compared.stdout)).toHaveProperty('verdict')
  })
})

describe('control characters in what REA prints', () => {
  test.for([
    ['capture-process', (file: string) => ['capture-process', file]],
    ['compare-process-captures', (file: string) => ['compare-process-captures', file, file]],
  ] as const)('%s shows the ESC and BEL of a hostile file escaped, never raw', async ([, args]) => {
    const file = scenarioFile('title.json', '\u001b]0;PWNED\u0007{')
    const result = await runCli(args(file), { cwd: directory })
    expect(result.code).toBe(3)
    expect(rawControlCharacters(result.stderr)).toEqual([])
    expect(result.stderr).toContain('\\e]0;PWNED\\x07')
  })
})

describe('rea (other commands)', () => {
  test('prints help, per-command usage and the version', async () => {
    const help = await runCli(['--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('capture-process')
    expect((await runCli(['capture-process', '--help'])).stdout).toContain(
      'Usage: rea capture-process <scenario.json>',
    )
    expect((await runCli(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+\n$/)
  })

  test.for([
    [['no-such-command'], 'Unknown command "no-such-command"'],
    [['capture-process', 'a.json', '--bogus'], "Unknown option '--bogus'"],
    [['capture-process'], 'Expected 1 argument'],
    [['capture-process', 'a.json', '--format', 'xml'], '--format must be one of toon, json, summary'],
    [['schema', 'nothing'], 'schema name must be one of scenario, evidence'],
  ])('rejects %j with exit 3', async ([args, message]) => {
    const result = await runCli(args as string[])
    expect(result.code).toBe(3)
    expect(result.stderr).toContain(message)
    noStackTrace(result.stderr)
  })

  test.for(['scenario', 'evidence'])('prints the %s JSON Schema', async (name) => {
    const result = await runCli(['schema', name])
    expect(result.code).toBe(0)
    const schema = JSON.parse(result.stdout) as { $schema: string; properties: Record<string, unknown> }
    expect(schema.$schema).toContain('json-schema.org')
    expect(Object.keys(schema.properties)).toContain(
      name === 'scenario' ? 'executable' : 'truncation_details',
    )
  })

  test('reports capture as available on this host and exits 0', async () => {
    const result = await runCli(['capabilities', '--json'])
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({
      capture: { status: 'available' },
      pty_backend: {
        status: 'available',
        detail: 'the native PTY backend ran a test process (output drain complete)',
      },
      process_inspection: { status: 'available' },
      comparison: { status: 'available' },
    })
  })

  test('refuses to capture with an unknown REA_PTY_BACKEND: exit 4 and the values it takes', async () => {
    const result = await runCli(['capture-process', scenarioFile('true.json', { executable: 'true' })], {
      env: { REA_PTY_BACKEND: 'fork' },
    })
    expect(result.code).toBe(4)
    expect(result.stderr).toContain(
      'The environment variable REA_PTY_BACKEND is "fork"; it must be one of auto, native, node-pty (or unset, which is auto).',
    )
  })

  test.for([
    ['auto', 'native'],
    ['node-pty', 'node-pty'],
  ])(
    'records in host.pty_backend the backend that ran the command (REA_PTY_BACKEND=%s)',
    async ([value, name]) => {
      const file = scenarioFile('backend.json', { executable: 'true' })
      const result = await runCli(['capture-process', file, '--json'], {
        env: { REA_PTY_BACKEND: value },
      })
      expect(result.code, result.stderr).toBe(0)
      expect(parseEvidenceText(result.stdout).host.pty_backend).toBe(name)
    },
  )

  test('captures through node-pty when REA_PTY_BACKEND=node-pty', async () => {
    const result = await runCli(['capabilities', '--json'], { env: { REA_PTY_BACKEND: 'node-pty' } })
    expect(JSON.parse(result.stdout)).toMatchObject({
      pty_backend: {
        status: 'available',
        detail: 'the node-pty PTY backend ran a test process (output drain complete)',
      },
    })
  })
})
