import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { parseEvidenceText, type Evidence } from '../../src/front-end.js'
import { readStartIdentity } from '../../src/process/identity.js'
import { REPO_ROOT } from '../helpers/fixtures.js'
import { CLI } from '../helpers/run-cli.js'
import { asUser, createTestUsers, removeTestUsers, type TestUser } from '../helpers/test-users.js'
import { waitFor } from '../helpers/wait-for.js'

/**
 * REA run as a normal user cannot read the environment of other users' processes or of kernel threads, so it
 * cannot see whether they carry the run token. These tests create two real users (as root; elsewhere they skip
 * with the reason printed): the capture runs as one, and what it must tell apart runs as root or as the other.
 */
/** The built library, as a program of the capturing user imports it. */
const LIBRARY = path.join(REPO_ROOT, 'dist/index.js')
let directory: string
let capturer: TestUser | undefined
let other: TestUser | undefined
let skipReason: string | undefined

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'rea-unreadable-'))
  chmodSync(directory, 0o777)
  const created = await createTestUsers(['a', 'b'])
  if ('skip' in created) {
    skipReason = created.skip
  } else {
    ;[capturer, other] = created.users
    // The capture runs as that user, who must be able to reach this checkout (a clone under a 0700 folder is not).
    const reachable =
      spawnSync('setpriv', [...asUser(capturer!, {}, ['test', '-r', CLI]).slice(1)]).status === 0
    if (!reachable) {
      skipReason = `the user ${capturer!.name} cannot read ${CLI}`
    }
  }
  if (skipReason !== undefined) {
    console.log(`unreadable-processes: skipped: ${skipReason}`)
  }
})

afterAll(() => {
  removeTestUsers([capturer, other].filter((user): user is TestUser => user !== undefined))
  rmSync(directory, { recursive: true, force: true })
})

const skipped = (): boolean => skipReason !== undefined

/** `rea capture-process` as the capturing user; resolves with the Evidence once the CLI has exited. */
async function captureAsUser(scenario: object, name = 'scenario.json'): Promise<Evidence> {
  writeFileSync(path.join(directory, name), JSON.stringify(scenario))
  const [file, ...argv] = asUser(capturer!, { PATH: '/usr/bin:/bin' }, [
    process.execPath,
    CLI,
    'capture-process',
    name,
    '--json',
  ])
  const child = spawn(file!, argv, { cwd: directory, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text))
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  expect(code, stderr).toBe(0)
  return parseEvidenceText(stdout)
}

interface CaptureRun {
  jobRan: boolean
  settlement: string
  unknowns: unknown[]
  unverified: unknown[]
}

/**
 * The program the capturing user runs: 30 captures in one process (a CLI run each would mostly measure start-up),
 * printing for each whether `ticks` grew meanwhile and what the capture left unknown.
 */
function thirtyCaptures(ticks: string): string {
  return [
    `const { captureProcess } = await import(${JSON.stringify(LIBRARY)})`,
    `const { readFileSync } = await import('node:fs')`,
    'const runs = []',
    'for (let run = 0; run < 30; run++) {',
    `  const before = readFileSync(${JSON.stringify(ticks)}, 'utf8').length`,
    "  const evidence = await captureProcess({ executable: 'sh', arguments: ['-c', 'sleep 0.2; echo done'] })",
    `  const after = readFileSync(${JSON.stringify(ticks)}, 'utf8').length`,
    '  runs.push({ jobRan: after > before, settlement: evidence.settlement.status, unknowns: evidence.residual_unknowns, unverified: evidence.cleanup.unverified_processes })',
    '}',
    'console.log(JSON.stringify(runs))',
  ].join('\n')
}

/** Every capture ran while the other processes started, and none kept one of them unverified. */
function expectNoUnknown(runs: CaptureRun[]): void {
  expect(runs).toHaveLength(30)
  expect(runs.every((run) => run.jobRan)).toBe(true)
  const unproven = runs.filter((run) => run.unknowns.length + run.unverified.length > 0)
  expect(unproven, JSON.stringify(unproven)).toEqual([])
  expect(runs.every((run) => run.settlement === 'quiesced')).toBe(true)
}

/** Starts `script` with `sh -c` in a session of its own (as cron or another login would), as `user` or root. */
function startJob(script: string, user?: TestUser): ChildProcess {
  const argv = [
    'setsid',
    ...(user === undefined ? [] : asUser(user, { PATH: '/usr/bin:/bin' }, [])),
    'sh',
    '-c',
    script,
  ]
  return spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' })
}

/** Ends a job started by `startJob`: it leads its own process group. */
async function stopJob(job: ChildProcess): Promise<void> {
  if (job.pid !== undefined && job.exitCode === null) {
    const exited = new Promise((resolve) => job.once('exit', resolve))
    process.kill(-job.pid, 'SIGKILL')
    await exited
  }
}

describe('processes whose environment REA cannot read', () => {
  test.skipIf(skipped())(
    "proves another user's job is not the capture's: 30 captures while it starts a process every 20 ms, none with an unknown",
    async () => {
      const ticks = path.join(directory, 'job-ticks')
      writeFileSync(ticks, '')
      chmodSync(ticks, 0o666)
      const job = startJob(`while :; do /bin/echo tick >> '${ticks}'; sleep 0.02; done`, other)
      try {
        await waitFor(() => readFileSync(ticks, 'utf8').length > 0, { timeoutMs: 10_000 })
        const [file, ...argv] = asUser(capturer!, { PATH: '/usr/bin:/bin' }, [
          process.execPath,
          '--input-type=module',
          '-e',
          thirtyCaptures(ticks),
        ])
        const result = spawnSync(file!, argv, { cwd: directory, encoding: 'utf8', timeout: 200_000 })
        expect(result.status, result.stderr).toBe(0)
        // Before the proofs, 3 of 5 captures kept one of the job's processes unverified.
        expectNoUnknown(JSON.parse(result.stdout) as CaptureRun[])
      } finally {
        await stopJob(job)
      }
    },
    240_000,
  )

  test.skipIf(skipped())(
    'proves the processes of the runner above REA foreign when its session leader has exited: 30 captures, none with an unknown',
    async () => {
      // A test runner (root) started detached, so its session's leader has exited, starts a process every 20 ms
      // while the capturing user's program, its child, makes the captures. Its processes are children of REA's
      // ancestor (which may adopt an orphan of the capture) in a session no leader vouches for: only the runner
      // itself, an older member of that session, proves them foreign. Before that proof, 30 of 30 captures had one.
      const ticks = path.join(directory, 'runner-ticks')
      const result = path.join(directory, 'runner-result.json')
      writeFileSync(ticks, '')
      chmodSync(ticks, 0o666)
      const capturing = asUser(capturer!, { PATH: '/usr/bin:/bin' }, [
        process.execPath,
        '--input-type=module',
        '-e',
        thirtyCaptures(ticks),
      ])
      const runner = [
        "import { spawn } from 'node:child_process'",
        "import { appendFileSync, writeFileSync } from 'node:fs'",
        'const ticking = setInterval(() => {',
        `  appendFileSync(${JSON.stringify(ticks)}, 'tick\\n')`,
        "  spawn('sh', ['-c', 'sleep 0.05'], { stdio: 'ignore' })",
        '}, 20)',
        `const [file, ...argv] = ${JSON.stringify(capturing)}`,
        `const child = spawn(file, argv, { cwd: ${JSON.stringify(directory)}, stdio: ['ignore', 'pipe', 'inherit'] })`,
        "let out = ''",
        "child.stdout.setEncoding('utf8').on('data', (text) => (out += text))",
        "child.on('close', (code) => {",
        '  clearInterval(ticking)',
        `  writeFileSync(${JSON.stringify(result)}, JSON.stringify({ code, out }))`,
        '})',
      ].join('\n')
      writeFileSync(path.join(directory, 'runner.mjs'), runner)
      // setsid's shell leads the new session and exits at once; the runner, left to init, carries on in it.
      spawnSync('setsid', ['sh', '-c', `'${process.execPath}' runner.mjs >/dev/null 2>&1 &`], {
        cwd: directory,
        stdio: 'ignore',
      })
      await waitFor(() => existsSync(result), { timeoutMs: 200_000 })
      const { code, out } = JSON.parse(readFileSync(result, 'utf8')) as { code: number; out: string }
      expect(code, out).toBe(0)
      expectNoUnknown(JSON.parse(out) as CaptureRun[])
    },
    240_000,
  )

  test.skipIf(skipped())(
    'lists an orphan that leads its own session, started during the capture, as unverified and leaves it alive',
    async () => {
      const marker = path.join(directory, 'go')
      const pidFile = path.join(directory, 'orphan.pid')
      const capture = captureAsUser({
        executable: 'sh',
        arguments: ['-c', `until [ -e '${marker}' ]; do sleep 0.01; done`],
        settle_ms: 50,
      })
      // Started by root while the capture waits: setsid -f leaves it to init in a session of its own, so neither
      // its parents nor its session say whose it is.
      await waitFor(() => spawnSync('pgrep', ['-u', capturer!.name, '-x', 'sh']).status === 0, {
        timeoutMs: 10_000,
      })
      // No pipe to it: spawnSync would wait for the sleep to close it.
      spawnSync('setsid', ['-f', 'sh', '-c', `echo $$ > '${pidFile}'; exec sleep 600`], { stdio: 'ignore' })
      await waitFor(() => readFileSync(pidFile, { encoding: 'utf8', flag: 'a+' }).trim() !== '', {
        timeoutMs: 10_000,
      })
      const orphan = Number(readFileSync(pidFile, 'utf8').trim())
      try {
        writeFileSync(marker, '')
        const evidence = await capture
        expect(evidence.cleanup.unverified_processes).toContainEqual(
          expect.objectContaining({ pid: orphan, related: false }),
        )
        expect(evidence.residual_unknowns).toContainEqual(
          expect.objectContaining({ dimension: 'process', reason: 'unrelated_process_unverified' }),
        )
        expect(evidence.cleanup.killed.map((entry) => entry.pid)).not.toContain(orphan)
        expect(readStartIdentity(orphan).status).toBe('ok')
        // Processes that were running before the capture cannot be its own and are not listed.
        expect(evidence.cleanup.unverified_processes.map((entry) => entry.pid)).not.toContain(process.pid)
        expect(evidence.cleanup.owned_processes).toBe('not_needed')
      } finally {
        process.kill(orphan, 'SIGKILL')
      }
    },
    60_000,
  )

  test.skipIf(skipped())(
    'a setuid program the capture started is its own though REA cannot read it: found by lineage and killed',
    async () => {
      // su runs as root (REA cannot read its environment) and waits for a password on the capture's terminal;
      // the capture ends by its deadline while su still waits.
      const evidence = await captureAsUser({
        executable: 'sh',
        arguments: ['-c', 'su root -c true < /dev/tty & exec sleep 30'],
        // From 400 ms on: samples every 50 ms have seen su by then.
        events: [{ type: 'signal', signal: 'SIGKILL', at_ms: 400, after: { output: 'Password:' } }],
        settle_ms: 0,
      })
      expect(evidence.terminal.chunks.map((chunk) => chunk.data).join('')).toContain('Password:')
      const su = [
        ...evidence.cleanup.killed,
        ...evidence.process.samples.flatMap((sample) => sample.processes),
      ].filter((entry) => entry.command === 'su')
      expect(su.length).toBeGreaterThan(0)
      expect(su.every((entry) => entry.attribution === 'lineage' || entry.attribution === 'session')).toBe(
        true,
      )
      expect(evidence.residual_unknowns).toEqual([])
      expect(evidence.cleanup.unverified_processes).toEqual([])
      for (const entry of evidence.cleanup.killed) {
        expect(entry.confirmed_gone).toBe(true)
      }
    },
    60_000,
  )
})
