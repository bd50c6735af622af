import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  captureProcess,
  compareCaptures,
  serializeEvidence,
  type Evidence,
  type ProcessScenarioInput,
} from '../../src/index.js'
import { parseEvidenceText } from '../../src/front-end.js'
import { program } from '../helpers/fixtures.js'

const stream = (evidence: Evidence): string => evidence.terminal.chunks.map((chunk) => chunk.data).join('')

/** Captures in batches, so a 2-core machine is busy but not swamped; each one also survives import. */
async function captureAll(
  scenarios: readonly ProcessScenarioInput[],
  options: { root?: string } = {},
): Promise<Evidence[]> {
  const batch = 4
  const results: Evidence[] = []
  for (let start = 0; start < scenarios.length; start += batch) {
    const slice = scenarios.slice(start, start + batch)
    results.push(...(await Promise.all(slice.map((scenario) => captureProcess(scenario, options)))))
  }
  return results.map((evidence) => parseEvidenceText(serializeEvidence(evidence)))
}

describe('input waits for the terminal exchange', () => {
  test('a prompt that asks for the cursor position in the same write gets the reply before the typed answer, in 20 of 20 runs', async () => {
    // quiet_ms 0: the wait is met the moment "Name? " arrives, in the chunk that holds the query; only the
    // exchange stands between the answer and the reply.
    const captures = await captureAll(
      Array.from({ length: 20 }, () => ({
        executable: program('ask-and-read.mjs'),
        events: [{ type: 'input', data: 'Ada\r', after: { output: 'Name? ', quiet_ms: 0 } }],
        timeout_ms: 20_000,
      })),
    )
    for (const evidence of captures) {
      expect(stream(evidence)).toContain('read: \\e[1;7RAda\\r')
      // On a starved machine the program may not read the reply within the limit; it still came first.
      expect(evidence.interactions[0]).toMatchObject({ outcome: 'dispatched', exchange: { replies: 1 } })
    }
  })

  test('the first reply comes about as fast as later ones: the emulator is ready when the program asks', async ({
    annotate,
  }) => {
    const [evidence] = await captureAll([
      { executable: program('reply-latency.mjs'), arguments: ['--count', '4'], timeout_ms: 20_000 },
    ])
    const text = stream(evidence!)
    const first = /first ([\d.]+) ms/.exec(text)
    const later = /later ([\d. ]+) ms/.exec(text)
    // Times are recorded for people, never asserted: a loaded machine makes any of them slow.
    expect(first, text).not.toBeNull()
    expect(later, text).not.toBeNull()
    await annotate(`first reply ${first![1]} ms as the program measured it; later ones ${later![1]} ms`)
  })

  const vim = spawnSync('vim', ['--version']).status === 0
  if (!vim) {
    console.warn('skipped: vim is not installed (apt-get install vim); the XTGETTCAP exchange test needs it')
  }

  test.skipIf(!vim)(
    "vim's XTGETTCAP exchange: :wq typed at once exits with every reply read, 20 runs equivalent but for the order vim asks in, no echoed reply",
    async () => {
      // One folder per capture, so that no vim writes a file another one has open (its W11 prompt would wait).
      const roots = Array.from({ length: 20 }, () => mkdtempSync(path.join(tmpdir(), 'rea-vim-exchange-')))
      try {
        const captures: Evidence[] = []
        for (let start = 0; start < roots.length; start += 2) {
          const batch = roots.slice(start, start + 2).map((root) => {
            writeFileSync(path.join(root, 'notes.txt'), 'first line\n')
            return captureAll(
              [
                {
                  executable: 'vim',
                  arguments: ['-N', '-u', 'NONE', '-i', 'NONE', '-n', 'notes.txt'],
                  environment: { TERM: 'xterm-256color', LANG: 'C.UTF-8' },
                  events: [{ type: 'input', data: ':wq\r', after: { screen: 'notes.txt' } }],
                  timeout_ms: 20_000,
                },
              ],
              { root },
            )
          })
          captures.push(...(await Promise.all(batch)).flat())
        }
        for (const evidence of captures) {
          expect(evidence.exit).toMatchObject({ reason: 'exited', code: 0 })
          // vim asks for dozens of capabilities, a few at a time; every one was answered before :wq went in.
          expect(
            evidence.terminal.replies?.filter((reply) => reply.query === 'terminal_capability').length,
          ).toBeGreaterThan(10)
          // An unread reply is echoed by the tty once vim has left raw mode: ^[P1+r…
          expect(stream(evidence)).not.toContain('^[')
          for (const frame of evidence.terminal.frames) {
            expect(frame.status === 'retained' ? frame.lines.join('\n') : '').not.toContain('^[')
          }
        }
        // Compared screen by screen: vim orders a cursor escape among its queries by when replies come back, so
        // its output stream differs by a few bytes from run to run while every screen and reply is the same. For
        // the same reason it may send its colour query (OSC 10) before or after a capability query: REA keeps the
        // replies in the order asked, so such a pair differs only in that order. Anything else must be equal: the
        // same questions with the same answers, the same screens, the same exit.
        const [first, ...rest] = captures as [Evidence, ...Evidence[]]
        const replySet = (evidence: Evidence): string[] =>
          (evidence.terminal.replies ?? []).map((reply) => JSON.stringify([reply.query, reply.reply])).sort()
        for (const other of rest) {
          const comparison = compareCaptures(first, other, { terminal: 'screens' })
          const differing = Object.entries(comparison.dimensions).filter(
            ([, result]) => result.outcome !== 'equal',
          )
          const onlyReplyOrder =
            differing.length > 0 &&
            differing.every(
              ([dimension, result]) =>
                dimension === 'terminal' &&
                result.unknowns.length === 0 &&
                result.differences_omitted === 0 &&
                result.differences.every((difference) => difference.field.startsWith('terminal.replies[')),
            ) &&
            JSON.stringify(replySet(first)) === JSON.stringify(replySet(other))
          if (!onlyReplyOrder) {
            expect(comparison.verdict, JSON.stringify(differing)).toBe('equivalent')
          }
        }
      } finally {
        for (const root of roots) {
          rmSync(root, { recursive: true, force: true })
        }
      }
    },
  )
})

describe('keys are typed one at a time', () => {
  test('the Node.js REPL lists completions for Tab Tab, which it takes as a paste when both arrive in one read', async () => {
    const [evidence] = await captureAll([
      {
        executable: process.execPath,
        environment: { NODE_REPL_HISTORY: '' },
        events: [
          { type: 'input', data: 'process.ver', after: { screen: '> ' } },
          { type: 'input', keys: ['Tab', 'Tab'], after: { screen: 'process.ver' } },
          {
            type: 'input',
            // Ctrl+C clears the line, Ctrl+D on an empty line leaves the REPL.
            keys: ['Ctrl+C', 'Ctrl+D'],
            after: { screen: 'process.versions', within_ms: 10_000 },
          },
        ],
        timeout_ms: 30_000,
      },
    ])
    // The stream in the message: what the REPL drew says why a wait was not met.
    expect(
      evidence!.interactions.map((interaction) => interaction.outcome),
      JSON.stringify({ interactions: evidence!.interactions, stream: stream(evidence!) }),
    ).toEqual(['dispatched', 'dispatched', 'dispatched'])
    expect(evidence!.interactions[1]).toMatchObject({ bytes_sent: 2 })
    expect(evidence!.interactions[1]).not.toHaveProperty('keys_written')
    expect(evidence!.exit).toMatchObject({ reason: 'exited', code: 0 })
  })

  test('data stays one write: the program reads a paste in one piece', async () => {
    const [evidence] = await captureAll([
      {
        executable: program('key-reader.mjs'),
        events: [
          { type: 'input', data: 'ab', after: { screen: 'ready' } },
          { type: 'input', keys: ['c', 'd'], after: { screen: 'read 6162' } },
          { type: 'input', keys: ['q'], after: { screen: 'read 64' } },
        ],
        timeout_ms: 20_000,
      },
    ])
    const reads = stream(evidence!)
      .split(/\r*\n/)
      .filter((line) => line.startsWith('read '))
    expect(reads).toEqual(['read 6162', 'read 63', 'read 64', 'read 71'])
  })
})
