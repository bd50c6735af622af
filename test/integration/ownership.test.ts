import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { captureProcess, type Evidence, type ProgressRecord } from '../../src/index.js'
import { parseEvidenceText } from '../../src/front-end.js'
import { readStartIdentity } from '../../src/process/identity.js'
import { fixtureProjects } from '../helpers/fixture-project.js'
import { program, REPO_ROOT, SUPERVISOR_WAITER as WAITER } from '../helpers/fixtures.js'
import { startCli } from '../helpers/run-cli.js'
import { findTokenCarriers, workerMarker } from '../helpers/token-carriers.js'
import { waitFor } from '../helpers/wait-for.js'

const DAEMON_RUNS = 100

/**
 * Every process this worker's captures left behind that still carries a run token. Other test files capture
 * concurrently in other workers: their live targets carry tokens too, and must be neither counted nor killed.
 */
const survivors = () => findTokenCarriers(workerMarker())

const killedCommands = (evidence: Evidence) =>
  evidence.cleanup.killed.filter((entry) => entry.delivery === 'signaled').map((entry) => entry.command)

describe('owned-process cleanup', () => {
  test(`leaves no daemon behind in ${DAEMON_RUNS} captures, and records that cleanup was needed and done`, async () => {
    const problems: string[] = []
    for (let run = 0; run < DAEMON_RUNS; run++) {
      const evidence = await captureProcess({ executable: program('daemons.sh'), settle_ms: 50 })
      const left = survivors()
      if (
        left.length > 0 ||
        evidence.settlement.status !== 'cleanup_needed' ||
        evidence.cleanup.owned_processes !== 'completed' ||
        killedCommands(evidence).filter((command) => command === 'sleep').length !== 3
      ) {
        problems.push(
          `run ${run}: ${left.length} left, settlement ${evidence.settlement.status}, cleanup ${evidence.cleanup.owned_processes}, killed ${killedCommands(evidence).join(' ')}`,
        )
        for (const carrier of left) {
          process.kill(carrier.pid, 'SIGKILL')
        }
      }
    }
    expect(problems).toEqual([])
  })

  test('isolates 8 parallel captures from each other and from an unrelated process', async () => {
    let unrelated: ChildProcess | undefined
    try {
      unrelated = spawn('sleep', ['600'], { stdio: 'ignore' })
      const captures = await Promise.all(
        Array.from({ length: 8 }, () => captureProcess({ executable: program('daemons.sh'), settle_ms: 50 })),
      )
      expect(survivors()).toEqual([])
      for (const evidence of captures) {
        expect(evidence.cleanup.owned_processes).toBe('completed')
        expect(killedCommands(evidence).filter((command) => command === 'sleep')).toHaveLength(3)
        // Each capture killed only its own: no pid appears in two captures' cleanup.
      }
      const pids = captures.flatMap((evidence) => evidence.cleanup.killed.map((entry) => entry.pid))
      expect(new Set(pids).size).toBe(pids.length)
      expect(pids).not.toContain(unrelated.pid)
      expect(readStartIdentity(unrelated.pid!).status).toBe('ok')
    } finally {
      unrelated?.kill('SIGKILL')
    }
  })

  test('finds a daemon started after a quiet spell, when only a scan of every process can find it', async () => {
    // Quiet for 300 ms, so running samples look only at the processes already known; then a detached sleeper
    // (its own session, its parent gone at once): nothing owned is its parent, and only the scan of every
    // process that a fork on the host calls for finds it, by its token.
    const evidence = await captureProcess({ executable: program('late-daemon.sh'), settle_ms: 50 })
    expect(evidence.process.samples.length).toBeGreaterThanOrEqual(3)
    expect(evidence.cleanup.killed).toContainEqual(
      expect.objectContaining({ command: 'sleep', attribution: 'token', confirmed_gone: true }),
    )
    expect(survivors()).toEqual([])
  })

  test('kills a descendant that cleared its environment, by lineage or the root’s session', async () => {
    const evidence = await captureProcess({ executable: program('clear-env-child.sh'), settle_ms: 50 })
    const sleeper = evidence.cleanup.killed.find((entry) => entry.command === 'sleep')
    expect(sleeper).toMatchObject({ delivery: 'signaled', confirmed_gone: true })
    expect(['lineage', 'session']).toContain(sleeper!.attribution)
    expect(readStartIdentity(sleeper!.pid).status).toBe('gone')
  })

  test('ends and cleans up when a grandchild keeps the PTY slave open', async () => {
    const evidence = await captureProcess({ executable: program('pty-holder.sh'), settle_ms: 50 })
    expect(evidence.exit).toMatchObject({ code: 0, reason: 'exited' })
    expect(evidence.truncation_details.raw_terminal.drain).toBe('complete')
    expect(evidence.cleanup.owned_processes).toBe('completed')
    expect(killedCommands(evidence)).toContain('sleep')
  })

  test('ends and cleans up when a child closed its PTY descriptors and keeps running', async () => {
    const evidence = await captureProcess({ executable: program('pty-closer.sh'), settle_ms: 50 })
    expect(evidence.exit).toMatchObject({ code: 0, reason: 'exited' })
    expect(evidence.cleanup.owned_processes).toBe('completed')
    expect(killedCommands(evidence)).toContain('sleep')
  })

  test('confirms a killed detached child gone without waiting for init to reap the zombie', async () => {
    const evidence = await captureProcess({ executable: program('detach-sleeper.sh'), settle_ms: 0 })
    expect(evidence.cleanup.killed).toContainEqual(
      expect.objectContaining({ command: 'sleep', confirmed_gone: true }),
    )
    // Init reaps an orphan 1.7–1.9 s after it dies here; a zombie counts as gone, so cleanup need not wait.
    expect(evidence.cleanup.elapsed_ms).toBeLessThan(1500)
  })
})

/** How many process samples a progress record says REA has kept. */
const samplesReported = (record: ProgressRecord): number =>
  Number(/ samples=(\d+) /.exec(record.message)?.[1])

describe('process sampling', () => {
  test('samples the owned tree with identities and command names, never argv', async () => {
    // The sleep runs until a sample was taken after it started: a loaded machine spaces samples out, so no fixed
    // run time is sure to be sampled. Its PID comes from the program, and the test ends only that process.
    const pidFile = path.join(mkdtempSync(path.join(tmpdir(), 'rea-sampled-')), 'sleep.pid')
    let samplesWhenStarted: number | undefined
    const evidence = await captureProcess(
      {
        executable: 'bash',
        arguments: ['-c', `sleep 30 & echo $! > '${pidFile}'; wait; echo secret-argument-5150 >/dev/null`],
      },
      {
        onProgress: (record) => {
          const samples = samplesReported(record)
          if (samplesWhenStarted === undefined) {
            samplesWhenStarted =
              existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n') ? samples : undefined
          } else if (samples > samplesWhenStarted) {
            process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGTERM')
            samplesWhenStarted = Infinity
          }
        },
      },
    )
    rmSync(path.dirname(pidFile), { recursive: true, force: true })
    const samples = evidence.process.samples
    expect(samples.length).toBeGreaterThanOrEqual(2)
    const running = samples.find((sample) => sample.processes.some((entry) => entry.command === 'sleep'))
    expect(running).toBeDefined()
    const root = running!.processes.find((entry) => entry.pid === evidence.process.root!.pid)
    expect(root).toMatchObject({ command: 'bash', sid: evidence.process.root!.pid, attribution: 'token' })
    expect(running!.processes.find((entry) => entry.command === 'sleep')).toMatchObject({ ppid: root!.pid })
    expect(JSON.stringify(samples)).not.toContain('secret-argument-5150')
    expect(evidence.truncation_details.process).toMatchObject({
      limit_reached: false,
      partial: false,
      coverage: 'sampled',
    })
    expect(evidence.process.root).toMatchObject({ binding: 'bound' })
  })

  test('stops keeping samples at limits.process_samples and says the record is partial', async () => {
    // The program runs until REA has kept both samples (a loaded machine spaces samples out, so no fixed run time
    // is sure to hold two); settlement's observation is then the one past the limit.
    const stop = path.join(mkdtempSync(path.join(tmpdir(), 'rea-samples-')), 'stop')
    const evidence = await captureProcess(
      {
        executable: 'sh',
        arguments: ['-c', `until [ -e '${stop}' ]; do sleep 0.02; done`],
        limits: { process_samples: 2 },
      },
      {
        onProgress: (record) => {
          if (samplesReported(record) === 2) {
            writeFileSync(stop, '')
          }
        },
      },
    )
    rmSync(path.dirname(stop), { recursive: true, force: true })
    expect(evidence.process.samples).toHaveLength(2)
    expect(evidence.truncation_details.process).toMatchObject({
      sample_limit: 2,
      limit_reached: true,
      partial: true,
    })
    expect(evidence.truncated).toBe(true)
    // Settlement and cleanup still observed the whole tree.
    expect(evidence.settlement.status).toBe('quiesced')
  })
})

/** The live supervisor of process `parent` (this one by default), if any. */
function supervisorOf(parent = process.pid): number | undefined {
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const status = readFileSync(`/proc/${name}/status`, 'utf8')
      if (
        /^Name:\s+rea-supervisor$/m.test(status) &&
        /^PPid:\s+(\d+)$/m.exec(status)?.[1] === String(parent) &&
        !/^State:\s+Z/m.test(status)
      ) {
        return Number(name)
      }
    } catch {
      // Gone between the listing and the read.
    }
  }
  return undefined
}

/** The registry file a supervisor holds as descriptor 3 (removed from its directory), if it was given one. */
function registryOf(supervisor: number): string | undefined {
  let target: string
  try {
    target = readlinkSync(`/proc/${supervisor}/fd/3`)
  } catch {
    // No descriptor 3 at all: no registry either.
    return undefined
  }
  // Without a registry, descriptor 3 is one of Node's own (its event loop's epoll instance, say).
  return target.includes('rea-supervisor-') ? target : undefined
}

describe('the supervisor', () => {
  const supervisor = (): number | undefined => supervisorOf()
  const terminalsHeldBy = (pid: number) =>
    readdirSync(`/proc/${pid}/fd`).filter((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === '/dev/ptmx'
      } catch {
        // Closed between the listing and the read.
        return false
      }
    })

  test('is one per process, is replaced at the next capture after it died, and holds no capture’s terminal', async () => {
    // Node sets the title once it has started, a moment after the spawn.
    const started = () => waitFor(supervisor, { description: 'a supervisor titled rea-supervisor' })
    await captureProcess({ executable: 'true' })
    const first = await started()
    await captureProcess({ executable: 'true' })
    expect(supervisor()).toBe(first)

    // Replaced while a capture runs: node-pty's PTY master of that capture is inheritable.
    const controller = new AbortController()
    let running = false
    const pending = captureProcess(
      { executable: 'sleep', arguments: ['30'] },
      { signal: controller.signal, onProgress: (record) => (running ||= record.phase === 'running') },
    )
    try {
      await waitFor(() => running, { description: 'the capture to run' })
      process.kill(first, 'SIGKILL')
      await waitFor(() => supervisor() === undefined, { description: 'the supervisor to be gone' })
      await captureProcess({ executable: 'true' })
      const second = await started()
      expect(second).not.toBe(first)
      expect(terminalsHeldBy(second)).toEqual([])
    } finally {
      controller.abort()
      await pending
    }
  })
})

describe('when REA itself ends during a capture', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'rea-ownership-'))
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))
  // The root keeps running, so the capture is in progress; its three daemons escape the PTY's hang-up.
  const scenario = path.join(scratch, 'daemons.json')
  writeFileSync(scenario, JSON.stringify({ executable: program('daemons.sh'), arguments: ['stay'] }))
  // Counted once each has exec'd its sleep (the root too, with `stay`): a daemon counted while still the `sh`
  // that sets it up is killed as `sh`, and the test then finds two sleeps killed instead of three.
  const running = () =>
    waitFor(() => survivors().filter(({ command }) => command === 'sleep 600').length >= 4, {
      timeoutMs: 60_000,
      description: 'the root and its three detached daemons to run their sleep',
    })
  const nothingLeft = () =>
    waitFor(() => survivors().length === 0, {
      timeoutMs: 10_000,
      description: 'the supervisor to kill every process the capture left',
    })

  // Where no registry file can be made, REA tells its supervisor by the pipe instead. The command gets a usable
  // temporary directory of its own, which daemons.sh needs.
  const pipeScenario = path.join(scratch, 'daemons-pipe.json')
  writeFileSync(
    pipeScenario,
    JSON.stringify({
      executable: program('daemons.sh'),
      arguments: ['stay'],
      environment: { TMPDIR: tmpdir() },
    }),
  )
  // A full disk: a tmpfs of two pages, filled. The registry file is made (an inode needs no page), and its first
  // write fails. Mounting needs root; elsewhere that case is skipped.
  const fullDisk = mkdtempSync(path.join(tmpdir(), 'rea-full-disk-'))
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=8k', 'tmpfs', fullDisk]).status === 0
  if (mounted) {
    spawnSync('sh', ['-c', `head -c 65536 /dev/zero > '${fullDisk}/filler'`])
  }
  afterAll(() => {
    if (mounted) {
      spawnSync('umount', [fullDisk])
    }
    rmSync(fullDisk, { recursive: true, force: true })
  })
  const registryIn = (directory: string) =>
    new RegExp(`^${directory.replaceAll('/', '\\/')}\\/rea-supervisor-\\d+-[0-9a-f]+ \\(deleted\\)$`)

  test.for([
    ['registered in its registry file', scenario, {}, registryIn(tmpdir())],
    ['told by its pipe (no temporary directory)', pipeScenario, { TMPDIR: '/nonexistent' }, undefined],
    // The first write fails: the waiter given the registry is replaced by the Node.js supervisor, told by its pipe.
    [
      'told by its pipe once a registry write failed (a full disk)',
      pipeScenario,
      { TMPDIR: fullDisk },
      undefined,
    ],
  ] as const)(
    'SIGKILL to `rea capture-process` leaves no descendant running: the supervisor, %s, kills them',
    async ([, file, env, registry], context) => {
      if ('TMPDIR' in env && env.TMPDIR === fullDisk && !mounted) {
        context.skip('a tmpfs could not be mounted to fill (needs root)')
      }
      const run = startCli(['capture-process', file, '--json', '--no-progress'], { env })
      await running()
      let held: string | undefined
      let runs: string | undefined
      try {
        const supervisor = await waitFor(() => supervisorOf(run.child.pid), {
          description: 'the CLI’s supervisor',
        })
        held = registryOf(supervisor)
        runs = readlinkSync(`/proc/${supervisor}/exe`)
      } finally {
        run.child.kill('SIGKILL')
      }
      if (registry === undefined) {
        expect(held).toBeUndefined()
        expect(runs).toBe(process.execPath)
      } else {
        expect(held).toMatch(registry)
        // While REA lives, the native waiter stands in for Node.js; it hands over once REA is killed.
        expect(runs).toBe(existsSync(WAITER) ? WAITER : process.execPath)
      }
      expect((await run.result).signal).toBe('SIGKILL')
      await nothingLeft()
    },
  )

  test('SIGHUP to `rea capture-process` cancels: exit 129, Evidence written, every daemon killed', async () => {
    const run = startCli(['capture-process', scenario, '--json', '--no-progress'])
    await running()
    run.child.kill('SIGHUP')
    const result = await run.result
    expect(result.code).toBe(129)
    const evidence = parseEvidenceText(result.stdout)
    expect(evidence).toMatchObject({ disposition: 'cancelled', cleanup: { owned_processes: 'completed' } })
    expect(killedCommands(evidence).filter((command) => command === 'sleep')).toHaveLength(3)
    expect(survivors()).toEqual([])
  })

  const killedWorkerProject = fixtureProjects('vitest-killed-worker')
  test.for([
    ['the built package', undefined],
    ['its TypeScript sources', path.join(REPO_ROOT, 'src/index.ts')],
  ] as const)(
    'a Vitest worker killed during a capture, with REA from %s, leaves no descendant running',
    async ([, entry]) => {
      const project = killedWorkerProject()
      const pidFile = path.join(project, 'worker.pid')
      const vitest = spawn(
        process.execPath,
        [path.join(REPO_ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', project],
        {
          cwd: project,
          env: {
            ...process.env,
            DAEMONS: program('daemons.sh'),
            WORKER_PID_FILE: pidFile,
            ...(entry === undefined ? {} : { REA_ENTRY: entry }),
          },
          stdio: 'ignore',
        },
      )
      const closed = new Promise((resolve) => vitest.once('close', resolve))
      try {
        await running()
        process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL')
        await nothingLeft()
      } finally {
        // Vitest reports the lost worker and ends; it is killed only if it did not.
        vitest.kill('SIGKILL')
        await closed
      }
    },
  )
})
