import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { createMacosInspector } from '../../../src/process/inspector-macos.js'
import { macosSnapshotSchema, parseHelperOutput } from '../../../src/process/macos-helper.js'
import { REPO_ROOT } from '../../helpers/fixtures.js'

// Documents in the format native/macos/process-inspect.swift prints (see the comment at its top).
const BOOT = { version: 1, boot_id: 'B00T-1D', now_ticks: 5000 }
const record = (pid: number, ppid: number, environ: string, extra: Record<string, unknown> = {}) => ({
  pid,
  ppid,
  pgid: pid,
  sid: pid,
  start_ticks: 4000 + pid,
  comm: `proc${pid}`,
  state: 'S',
  environ,
  ...extra,
})

/** A fake helper answering from a fixed table; `calls` records what REA asked it. */
function fakeHelper(table: ReturnType<typeof record>[], token = 'REA_RUN_TOKEN=t') {
  const calls: string[][] = []
  const run = (args: readonly string[]): string => {
    calls.push([...args])
    const [command, first, second] = args
    const withEntry = (entry: string | undefined) =>
      table.map((entry_) => ({
        ...entry_,
        environ: entry === '-' ? 'lacks' : entry === token ? entry_.environ : 'lacks',
      }))
    switch (command) {
      case 'boot':
        return JSON.stringify(BOOT)
      case 'snapshot':
        return JSON.stringify({ ...BOOT, processes: withEntry(first) })
      case 'process': {
        const found = withEntry(second).find((entry) => entry.pid === Number(first))
        return JSON.stringify({
          version: 1,
          boot_id: BOOT.boot_id,
          gone: found === undefined,
          ...(found === undefined ? {} : { process: found }),
        })
      }
      default:
        throw new Error(`unexpected helper command ${String(command)}`)
    }
  }
  return { run, calls }
}

describe('parseHelperOutput', () => {
  test('accepts the documented snapshot format, with environ_error only for unreadable environments', () => {
    const snapshot = parseHelperOutput(
      macosSnapshotSchema,
      JSON.stringify({
        ...BOOT,
        processes: [record(1, 0, 'lacks'), record(7, 1, 'unreadable', { environ_error: 'EPERM' })],
      }),
      'snapshot',
    )
    expect(snapshot.processes[1]).toMatchObject({ environ: 'unreadable', environ_error: 'EPERM' })
  })

  test.for([
    ['not JSON', 'Segmentation fault', 'not JSON'],
    ['another format version', JSON.stringify({ ...BOOT, version: 2, processes: [] }), 'unexpected document'],
    ['an unknown field', JSON.stringify({ ...BOOT, processes: [], extra: 1 }), 'unexpected document'],
    [
      'an unknown state',
      JSON.stringify({ ...BOOT, processes: [record(1, 0, 'lacks', { state: 'Q' })] }),
      'unexpected document',
    ],
  ] as const)('rejects %s', ([, text, message]) => {
    expect(() => parseHelperOutput(macosSnapshotSchema, text, 'snapshot')).toThrow(message)
  })

  test('matches the field names the Swift helper encodes', () => {
    const swift = readFileSync(`${REPO_ROOT}/native/macos/process-inspect.swift`, 'utf8')
    for (const field of [
      'pid',
      'ppid',
      'pgid',
      'sid',
      'start_ticks',
      'comm',
      'state',
      'environ',
      'environ_error',
      'boot_id',
      'now_ticks',
      'processes',
      'gone',
      'process',
      'version',
    ]) {
      expect(swift, field).toMatch(new RegExp(`\\blet ${field}: `))
    }
  })
})

describe('createMacosInspector', () => {
  test('answers identity and token questions about one process fresh from the helper', () => {
    const { run, calls } = fakeHelper([record(42, 1, 'carries')])
    const inspector = createMacosInspector(run)
    expect(inspector.readStat(42)).toEqual({
      status: 'ok',
      value: {
        pid: 42,
        comm: 'proc42',
        state: 'S',
        ppid: 1,
        pgid: 42,
        sid: 42,
        startTicks: 4042,
        kernelThread: false,
      },
    })
    expect(inspector.readEnviron(42, Buffer.from('REA_RUN_TOKEN=t'))).toEqual({
      status: 'ok',
      value: 'carries',
    })
    expect(inspector.readEnviron(42, Buffer.from('REA_RUN_TOKEN=other'))).toEqual({
      status: 'ok',
      value: 'lacks',
    })
    expect(inspector.readStat(99)).toEqual({ status: 'gone' })
    expect(inspector.bootId()).toBe('B00T-1D')
    expect(calls.filter(([command]) => command === 'process')).toHaveLength(4)
  })

  test('reads every environment with one helper run, and reports unreadable ones with their error', () => {
    const { run, calls } = fakeHelper([
      record(10, 1, 'carries'),
      record(11, 1, 'lacks'),
      record(12, 1, 'unreadable', { environ_error: 'EPERM' }),
    ])
    const inspector = createMacosInspector(run)
    const environs = inspector.readAllEnvirons!(Buffer.from('REA_RUN_TOKEN=t'))
    expect(Object.fromEntries(environs)).toEqual({
      10: { status: 'ok', value: 'carries' },
      11: { status: 'ok', value: 'lacks' },
      12: { status: 'unreadable', code: 'EPERM' },
    })
    expect(calls.filter(([command]) => command === 'snapshot')).toHaveLength(1)
  })

  test('lists processes and children from one recent snapshot', () => {
    const { run, calls } = fakeHelper([
      record(10, 1, 'lacks'),
      record(11, 10, 'lacks'),
      record(12, 10, 'lacks'),
    ])
    const inspector = createMacosInspector(run)
    expect(inspector.listProcessIds()).toEqual([10, 11, 12])
    expect(inspector.readChildren(10)).toEqual([11, 12])
    expect(inspector.readChildren(11)).toEqual([])
    expect(calls.filter(([command]) => command === 'snapshot')).toHaveLength(1)
  })
})
