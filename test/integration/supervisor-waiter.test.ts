import { spawn, type ChildProcess } from 'node:child_process'
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { SUPERVISOR_WAITER as WAITER } from '../helpers/fixtures.js'
import { waitFor } from '../helpers/wait-for.js'
import { loadNativeBinding } from '../../src/internal/native-binding.js'
import { readProcStat } from '../../src/process/proc-linux.js'

/**
 * The supervisor's native waiter (native/linux/supervisor-waiter.c), run as REA runs it: a pipe from its parent on
 * descriptor 0, the registry file on descriptor 3, and the Node.js supervisor's command line as its arguments, here
 * a shell that leaves a mark. ownership.test.ts covers the whole supervisor after REA is killed.
 */
const built = existsSync(WAITER)
if (!built) {
  console.log(
    `supervisor-waiter.test.ts: skipped, ${WAITER} was not built (the install script builds it on Linux)`,
  )
}

const scratch = mkdtempSync(path.join(tmpdir(), 'rea-waiter-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

interface Waiter {
  readonly child: ChildProcess
  readonly exited: Promise<number | null>
  readonly mark: string
}

/** Starts the waiter with `registry` as its descriptor 3 and `extra` descriptors after it; it hands over to `sh`. */
function startWaiter(name: string, registry: string, extra: number[] = []): Waiter {
  const mark = path.join(scratch, `${name}.mark`)
  const fd = openSync(registry, 'r')
  try {
    const child = spawn(WAITER, ['/bin/sh', '-c', `cat <&3 > '${mark}'; cat > '${mark}.stdin'`], {
      stdio: ['pipe', 'ignore', 'ignore', fd, ...extra],
    })
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    return { child, exited, mark }
  } finally {
    closeSync(fd)
  }
}

function registryFile(name: string, text: string): string {
  const file = path.join(scratch, `${name}.registry`)
  writeFileSync(file, text)
  return file
}

describe.skipIf(!built)('the supervisor’s native waiter', () => {
  test('waits for its parent’s end, then ends without starting the supervisor when the registry is empty', async () => {
    const waiter = startWaiter('empty', registryFile('empty', ''))
    // Still waiting while the pipe is open.
    await new Promise((resolve) => setImmediate(resolve))
    expect(waiter.child.exitCode).toBeNull()
    waiter.child.stdin?.end()
    expect(await waiter.exited).toBe(0)
    expect(existsSync(waiter.mark)).toBe(false)
  })

  test('hands over to the supervisor’s command when a capture is still registered, with the registry on 3', async () => {
    const records = '{"kind":"own","token":"t","since_ticks":1}\n'
    const waiter = startWaiter('registered', registryFile('registered', records))
    waiter.child.stdin?.end()
    expect(await waiter.exited).toBe(0)
    expect(readFileSync(waiter.mark, 'utf8')).toBe(records)
    // Descriptor 0 is the pipe, at its end.
    expect(readFileSync(`${waiter.mark}.stdin`, 'utf8')).toBe('')
  })

  test('keeps no descriptor but its pipe, its output and the registry (a capture’s inherited PTY master)', async () => {
    const inherited = openSync(registryFile('inherited', 'x'), 'r')
    let waiter: Waiter | undefined
    try {
      waiter = startWaiter('descriptors', registryFile('descriptors', ''), [inherited, inherited])
      const pid = waiter.child.pid as number
      const open = () =>
        readdirSync(`/proc/${pid}/fd`)
          .map(Number)
          .sort((a, b) => a - b)
      await waitFor(() => open().length === 4, { description: 'the waiter to close what it inherited' })
      expect(open()).toEqual([0, 1, 2, 3])
    } finally {
      closeSync(inherited)
      waiter?.child.stdin?.end()
      await waiter?.exited
    }
  })
})

const native = loadNativeBinding()

describe.skipIf(!('binding' in native))('the addon’s detached spawn of the waiter', () => {
  const binding = 'binding' in native ? native.binding : undefined

  test('starts it in a session of its own, with the pipe on 0, /dev/null on 1 and 2, the registry on 3, nothing else', async () => {
    const report = path.join(scratch, 'detached.report')
    const registry = registryFile('detached', 'registered\n')
    const fd = openSync(registry, 'r')
    let started: { pid: number; pipe: number } | undefined
    try {
      // The same program as REA starts: the waiter, handing over to a shell that reports what it was given.
      const script = [
        `exec > '${report}.partial'`,
        'for fd in 0 1 2 3; do echo "$fd $(readlink /proc/$$/fd/$fd | sed "s/:\\[.*//")"; done',
        'ls /proc/$$/fd | sort -n | tr "\\n" " "; echo',
        // An empty environment: the shell itself sets PWD.
        "pwd; env | grep -v '^PWD=' | wc -l; cat <&3",
        `mv '${report}.partial' '${report}'`,
      ].join('\n')
      started = binding!.spawnDetached(WAITER, [WAITER, '/bin/sh', '-c', script], fd)
      const child = readProcStat(started.pid)
      expect(child.status === 'ok' && [child.value.ppid, child.value.sid]).toEqual([process.pid, started.pid])
    } finally {
      closeSync(fd)
    }
    // The waiter hands over only at the end of its pipe, as at REA's end.
    expect(existsSync(report)).toBe(false)
    closeSync(started.pipe)
    await waitFor(() => existsSync(report), { description: 'the handed-over shell to report' })
    const [descriptors, ...rest] = readFileSync(report, 'utf8').trim().split('\n').slice(4)
    expect(readFileSync(report, 'utf8').split('\n').slice(0, 4)).toEqual([
      '0 pipe',
      // The shell's own `exec >` took 1 over; 2 is still the waiter's.
      expect.stringMatching(/^1 \//),
      '2 /dev/null',
      `3 ${registry}`,
    ])
    // 0-3 and the descriptor ls opens to list them.
    expect(descriptors?.trim().split(' ').map(Number).slice(0, 4)).toEqual([0, 1, 2, 3])
    expect(rest).toEqual(['/', '0', 'registered'])
    // Reaped by the addon's thread once it ended: no zombie left in REA's process.
    await waitFor(() => readProcStat(started.pid).status !== 'ok', { description: 'the waiter to be reaped' })
  })

  test('says which system call failed when the program cannot be executed', () => {
    expect(() => binding!.spawnDetached('/nonexistent/rea-supervisor', ['rea-supervisor'], 0)).toThrow(
      /execve failed: No such file or directory/,
    )
  })
})
