import {
  chmodSync,
  closeSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import type * as NodePty from 'node-pty'
import { loadNativeBinding, type NativeBinding } from '../../src/internal/native-binding.js'
import { loadPtyBackend } from '../../src/terminal/load-pty-backend.js'
import { readForkCount, readProcStat } from '../../src/process/proc-linux.js'
import {
  createNativePtyBackend,
  MASTER_CLOSE_GRACE_MS,
  NATIVE_SPAWN_TASKS,
} from '../../src/terminal/native-pty-backend.js'
import { createNodePtyBackend } from '../../src/terminal/node-pty-backend.js'
import type { PtyBackend, PtyExit, PtySession, PtySpawnOptions } from '../../src/terminal/pty-backend.js'
import { WORKER_MARKER_VARIABLE } from '../helpers/token-carriers.js'
import { waitFor } from '../helpers/wait-for.js'

// The native spawner replaces node-pty's forkpty on Linux. A capture must not depend on which one started the
// command, so each property of the child is compared between the two, on real programs in real PTYs.
const nodePty = createNodePtyBackend(createRequire(import.meta.url)('node-pty') as typeof NodePty)
const native = await loadPtyBackend()

/** REA's addon itself, for the tests that drive its reader directly. */
function addon(): NativeBinding {
  const loaded = loadNativeBinding()
  if (!('binding' in loaded)) {
    throw new Error(loaded.problem)
  }
  return loaded.binding
}
const scratch = mkdtempSync(path.join(tmpdir(), 'rea-pty-backends-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

interface Finished {
  readonly output: string
  readonly exit: PtyExit
}

function spawnIn(backend: PtyBackend, options: Partial<PtySpawnOptions> & { file: string }): PtySession {
  return backend.spawn({
    executablePath: options.file,
    args: [],
    cwd: scratch,
    // The marker lets the leak check see what this test started. The environment is complete, PWD and TERM
    // included, as the launch builds it (childEnvironment): neither backend adds to it.
    env: {
      PATH: '/usr/bin:/bin',
      [WORKER_MARKER_VARIABLE]: process.env[WORKER_MARKER_VARIABLE] ?? '',
      PWD: scratch,
      TERM: 'xterm-256color',
    },
    columns: 80,
    rows: 24,
    terminalType: 'xterm-256color',
    ...options,
  })
}

async function finish(session: PtySession, input?: (seen: () => string) => Promise<void>): Promise<Finished> {
  const chunks: Buffer[] = []
  session.onData((chunk) => chunks.push(chunk))
  const seen = (): string => Buffer.concat(chunks).toString('latin1')
  try {
    await input?.(seen)
    const exit = await session.exited
    return { output: seen(), exit }
  } finally {
    session.dispose()
  }
}

async function runIn(
  backend: PtyBackend,
  script: string,
  options: Partial<PtySpawnOptions> = {},
): Promise<Finished> {
  return finish(spawnIn(backend, { file: '/bin/sh', args: ['-c', script], ...options }))
}

function zombieChildren(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
        const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
        return state === 'Z' && Number(parent) === process.pid
      } catch {
        return false
      }
    })
    .map(Number)
}

/** The child's own view of its terminal and process state, with its PID replaced so runs compare. */
const SELF_REPORT = [
  'tty',
  'stty -g',
  'stty size',
  'read sid pgid tpgid <<EOF',
  '$(cut -d" " -f6,5,8 /proc/$$/stat | awk "{print \\$2, \\$1, \\$3}")',
  'EOF',
  '[ "$sid" = $$ ] && echo session-leader',
  '[ "$pgid" = $$ ] && echo group-leader',
  '[ "$tpgid" = $$ ] && echo foreground',
  'pwd',
  'tr "\\0" "\\n" < /proc/$$/environ',
  'ls /proc/$$/fd',
].join('\n')

describe('the native spawner against node-pty', () => {
  test('is the backend captures use on Linux', () => {
    expect(native.name).toBe('native')
  })

  test('gives the child the same terminal, session, signals, directory and environment', async () => {
    // bash so that the here-document works the same wherever /bin/sh points.
    const options = { file: '/bin/bash', args: ['-c', SELF_REPORT], columns: 91, rows: 37 }
    const [fromNative, fromNodePty] = [
      await finish(spawnIn(native, options)),
      await finish(spawnIn(nodePty, options)),
    ]
    const normalize = (text: string): string => text.replace(/\/dev\/pts\/\d+/g, '/dev/pts/N')
    expect(fromNative.exit).toEqual({ exitCode: 0, signal: 0, drain: 'complete' })
    expect(normalize(fromNative.output)).toBe(normalize(fromNodePty.output))
    // And what it is, so that a change to both would not pass unnoticed.
    const report = normalize(fromNative.output)
    expect(report).toContain('/dev/pts/N\r\n')
    expect(report).toContain('37 91\r\n')
    expect(report).toContain('session-leader\r\ngroup-leader\r\nforeground\r\n')
    expect(report).toContain(`${scratch}\r\nPATH=/usr/bin:/bin\r\n`)
    expect(report).toContain(`PWD=${scratch}\r\nTERM=xterm-256color\r\n`)
  })

  test('starts the program with no signal blocked or ignored', async () => {
    // Node ignores SIGPIPE; the program must not inherit that, nor glibc's internal signals ignored.
    const options = { file: '/bin/grep', args: ['-E', '^Sig(Blk|Ign):', '/proc/self/status'] }
    for (const backend of [native, nodePty]) {
      const { output } = await finish(spawnIn(backend, options))
      expect(output).toBe('SigBlk:\t0000000000000000\r\nSigIgn:\t0000000000000000\r\n')
    }
  })

  test('leaves no PTY master of another capture open in the child', async () => {
    const holder = spawnIn(native, { file: '/bin/sh', args: ['-c', 'read line'] })
    try {
      const { output } = await runIn(native, 'for fd in /proc/$$/fd/*; do readlink "$fd"; done')
      expect(output).not.toContain('/dev/ptmx')
      expect(output).not.toContain('/dev/pts/ptmx')
    } finally {
      holder.write('\r')
      await holder.exited
      holder.dispose()
    }
  })

  test('drains the output when REA’s event loop stalls right after the exit, past the master’s grace period', async () => {
    // A loaded machine can stall the event loop between the reap (which writes the drain marker and starts the
    // master's grace timer) and the next read: after the stall, the timer is due before the read runs.
    const stall = (ms: number) => {
      const until = performance.now() + ms
      while (performance.now() < until) {
        // Busy, as a CPU-starved worker is.
      }
    }
    // The stall lands after the grace timer is set only when the reap is what tells REA of the exit: not every
    // time, so several runs of each.
    const results: string[] = []
    for (const backend of [native, nodePty]) {
      for (let run = 0; run < 6; run++) {
        const session = spawnIn(backend, { file: '/bin/sh', args: ['-c', 'printf "last line\\n"'] })
        void session.rootGone.then(() => stall(MASTER_CLOSE_GRACE_MS * 2))
        const { output, exit } = await finish(session)
        results.push(
          `${backend.name}: ${output.includes('last line') ? 'output' : 'no output'}, drain ${exit.drain}`,
        )
      }
    }
    expect(results).toEqual([
      ...Array.from({ length: 6 }, () => `${native.name}: output, drain complete`),
      ...Array.from({ length: 6 }, () => `${nodePty.name}: output, drain complete`),
    ])
  })

  test('reports exit codes and signals as node-pty does', async () => {
    for (const backend of [native, nodePty]) {
      expect((await runIn(backend, 'exit 7')).exit).toMatchObject({ exitCode: 7, signal: 0 })
      expect((await runIn(backend, 'kill -TERM $$')).exit).toMatchObject({ exitCode: 0, signal: 15 })
    }
  })

  test('makes the PTY the controlling terminal: Ctrl-C interrupts the foreground program', async () => {
    const session = spawnIn(native, { file: '/bin/sh', args: ['-c', 'echo ready; exec sleep 60'] })
    const { exit } = await finish(session, async (seen) => {
      await waitFor(() => seen().includes('ready'), { description: 'the program to start' })
      session.write('\x03')
    })
    expect(exit).toMatchObject({ exitCode: 0, signal: 2 })
  })

  test('runs a script without a #! line through /bin/sh, as execvp does', async () => {
    const script = path.join(scratch, 'no-shebang')
    writeFileSync(script, 'echo "ran with [$1] [$2]"\n')
    chmodSync(script, 0o755)
    for (const backend of [native, nodePty]) {
      const { output, exit } = await finish(spawnIn(backend, { file: script, args: ['a b', 'c'] }))
      expect(output).toBe('ran with [a b] [c]\r\n')
      expect(exit.exitCode).toBe(0)
    }
  })

  test('resolves a bare name to the given path but shows the child the name it was given', async () => {
    const { output } = await finish(
      spawnIn(native, { file: 'sh', executablePath: '/bin/sh', args: ['-c', 'echo "$0"'] }),
    )
    expect(output).toBe('sh\r\n')
  })

  test('takes a large input at the pace the program reads it', async () => {
    const size = 200_000
    const session = spawnIn(native, {
      file: '/bin/sh',
      args: ['-c', `stty raw -echo; echo ready; head -c ${size} | wc -c`],
    })
    const { output } = await finish(session, async (seen) => {
      await waitFor(() => seen().includes('ready'), { description: 'the reader to start' })
      session.write('x'.repeat(size))
    })
    expect(output.replace(/\s+/g, ' ').trim()).toBe(`ready ${size}`)
  })

  test('hands a flood over in batches no larger than a stream’s read, every byte in order', async () => {
    // The reader thread gathers the master's reads of up to 4 KiB and hands them over together, never more than
    // the 64 KiB a tty.ReadStream hands over at once.
    const lines = 400_000
    const session = spawnIn(native, { file: '/usr/bin/seq', args: [String(lines)] })
    const sizes: number[] = []
    session.onData((chunk) => sizes.push(chunk.length))
    const { output, exit } = await finish(session)
    expect(exit.drain).toBe('complete')
    const expected = Array.from({ length: lines }, (_, index) => `${index + 1}\r\n`).join('')
    expect(output.length).toBe(expected.length)
    expect(output === expected).toBe(true)
    // On average several reads to a chunk: about 20 KiB here, against 2-3 KiB through node-pty's stream.
    expect(output.length / sizes.length).toBeGreaterThan(8 * 1024)
    expect(Math.max(...sizes)).toBeLessThanOrEqual(64 * 1024)
  })

  test('offers plain text as a count: a counter that takes it gets every byte counted, escapes and the marker still arrive', async () => {
    // 3 MB of plain text, then a colour sequence and a last line: the counter takes only batches that hold no ESC
    // and end on a whole character, so the sequence and the drain marker are handed over as bytes.
    const size = 3_000_000
    const session = spawnIn(native, {
      file: '/bin/sh',
      args: ['-c', `head -c ${size} /dev/zero | tr '\\0' a; printf '\\033[31mred\\033[0m\\n'`],
    })
    const offered: number[] = []
    let counted = 0
    session.countPlainOutput((byteLength) => {
      offered.push(byteLength)
      // Every other offer is declined, so both paths carry the flood.
      if (offered.length % 2 === 0) {
        return false
      }
      counted += byteLength
      return true
    })
    const { output, exit } = await finish(session)
    expect(exit.drain).toBe('complete')
    expect(offered.length).toBeGreaterThan(2)
    expect(counted).toBeGreaterThan(0)
    // Counted and handed-over bytes add up to the whole output, in order: no byte is lost or seen twice.
    expect(counted + output.length).toBe(size + '\x1b[31mred\x1b[0m\r\n'.length)
    expect(output.endsWith('a\x1b[31mred\x1b[0m\r\n')).toBe(true)
    expect(output.replace('\x1b[31mred\x1b[0m\r\n', '')).toMatch(/^a*$/)
  })

  test('node-pty offers nothing to count: every byte reaches onData', async () => {
    const session = spawnIn(nodePty, { file: '/bin/sh', args: ['-c', 'printf plain'] })
    let offers = 0
    session.countPlainOutput(() => {
      offers++
      return true
    })
    const { output } = await finish(session)
    expect(output).toBe('plain')
    expect(offers).toBe(0)
  })

  test('pauses by leaving the master unread, so the program blocks in its write until the resume', async () => {
    const size = 3_000_000
    const session = spawnIn(native, { file: '/usr/bin/head', args: ['-c', String(size), '/dev/zero'] })
    let received = 0
    let atPause: number | undefined
    session.onData((chunk) => {
      received += chunk.length
      if (atPause === undefined) {
        session.pause()
        atPause = received
      }
    })
    // head reads /dev/zero, which never sleeps: asleep, it waits in a write on the terminal, whose buffers hold
    // far less than the whole output.
    const blockedInWrite = (): boolean => {
      const stat = readProcStat(session.pid)
      return stat.status === 'ok' && stat.value.state === 'S'
    }
    await waitFor(() => atPause !== undefined && blockedInWrite(), {
      description: 'head to block in a write while the reader is paused',
    })
    expect(received).toBe(atPause)
    session.resume()
    const { exit } = await finish(session)
    expect(exit.drain).toBe('complete')
    expect(received).toBe(size)
  })

  test('hands over what was read before a stop, and ignores the handle once stopped', async () => {
    const binding = addon()
    const spawned = binding.spawn(
      '/bin/sh',
      ['sh', '-c', 'printf ready; exec sleep 30'],
      [],
      scratch,
      80,
      24,
      () => {
        closeSync(spawned.slave)
      },
    )
    const received: string[] = []
    const handle = binding.readMaster(
      spawned.fd,
      (chunk) => {
        // A plain batch is offered as its length first; declining it hands over its bytes.
        if (typeof chunk !== 'number') {
          received.push(chunk.toString('latin1'))
        }
        return false
      },
      () => undefined,
    )
    try {
      await waitFor(() => received.join('').includes('ready'), { description: 'the first output' })
      binding.pauseReading(handle)
    } finally {
      // Stopping closes the master: the terminal hangs up and the shell's sleep ends with SIGHUP.
      const rest = binding.stopReading(handle)
      expect(rest?.toString('latin1') ?? '').toBe('')
    }
    // Once stopped, the handle is inert: no call reaches freed memory or a closed descriptor.
    expect(binding.stopReading(handle)).toBeUndefined()
    binding.pauseReading(handle)
    binding.resumeReading(handle)
    expect(received.join('')).toBe('ready')
    await waitFor(() => zombieChildren().length === 0 && !existsSync(`/proc/${spawned.pid}`), {
      description: 'the shell to end and be reaped',
    })
  })

  test('ends the child and closes the terminal when no reader thread can be started', async () => {
    const binding = addon()
    let started: number | undefined
    let reaped = false
    const failing = createNativePtyBackend({
      ...binding,
      spawn: (path, argv, envp, cwd, columns, rows, onExit) => {
        const spawned = binding.spawn(path, argv, envp, cwd, columns, rows, (code, signal) => {
          onExit(code, signal)
          reaped = true
        })
        started = spawned.pid
        return spawned
      },
      readMaster: () => {
        throw new Error('pthread_create failed: Resource temporarily unavailable')
      },
    })
    expect(() => spawnIn(failing, { file: '/bin/sleep', args: ['30'] })).toThrow(/pthread_create failed/)
    expect(started).toBeDefined()
    await waitFor(() => reaped && !existsSync(`/proc/${started}`), {
      description: 'the unread child to be ended and reaped',
    })
    // The reap must not go on to close a terminal that has no reader. That close would come after the master's
    // grace period, which this waits out by the same timers; an error there fails the run.
    await new Promise((resolve) => setTimeout(() => setImmediate(resolve), MASTER_CLOSE_GRACE_MS))
  })

  test('passes a new window size to the program', async () => {
    const session = spawnIn(native, {
      file: '/bin/sh',
      args: ['-c', 'trap "stty size; exit 0" WINCH; echo ready; while :; do sleep 0.05; done'],
    })
    const { output } = await finish(session, async (seen) => {
      await waitFor(() => seen().includes('ready'), { description: 'the trap to be set' })
      session.resize(120, 40)
    })
    expect(output).toContain('40 120')
  })

  test('says why a program could not start, instead of a child that prints it and exits 1', () => {
    const notExecutable = path.join(scratch, 'not-executable')
    writeFileSync(notExecutable, 'echo never\n')
    chmodSync(notExecutable, 0o644)
    expect(() => spawnIn(native, { file: notExecutable })).toThrow('execve failed: Permission denied')
    expect(() => spawnIn(native, { file: '/bin/true', cwd: path.join(scratch, 'missing') })).toThrow(
      'chdir failed: No such file or directory',
    )
    // The child that failed was reaped, not left a zombie.
    expect(zombieChildren()).toEqual([])
  })

  // Ownership trusts this number: a first observation that finds the host's task count grown by just the spawn's
  // own tasks examines the root alone. Declaring one task too many would let a fork of the root pass unseen.
  test.for([
    ['a program', '/bin/true'],
    ['a script without a #! line (run by /bin/sh in the same child)', 'script'],
  ] as const)('creates exactly the tasks it declares on the host, for %s', async ([, file]) => {
    const executable = file === 'script' ? path.join(scratch, 'counted-script') : file
    if (file === 'script') {
      writeFileSync(executable, 'exit 0\n')
      chmodSync(executable, 0o755)
    }
    const growths = new Set<number>()
    // Other tasks on a busy host add to some spawns' growth, never take from it: the smallest is the spawn's own.
    for (let attempt = 0; attempt < 30 && !growths.has(NATIVE_SPAWN_TASKS); attempt++) {
      const before = readForkCount()
      const session = spawnIn(native, { file: executable })
      const after = readForkCount()
      await finish(session)
      growths.add((after ?? Number.NaN) - (before ?? Number.NaN))
      expect(session.tasksCreated).toBe(NATIVE_SPAWN_TASKS)
    }
    expect(Math.min(...growths)).toBe(NATIVE_SPAWN_TASKS)
  })

  test('leaves the task count to node-pty, which does not declare one', () => {
    const session = spawnIn(nodePty, { file: '/bin/true' })
    expect(session.tasksCreated).toBeUndefined()
    return finish(session)
  })
})
