import { spawnSync } from 'node:child_process'
import { describe, expect, test } from 'vitest'
import {
  captureProcess,
  compareCaptures,
  serializeEvidence,
  type Evidence,
  type ProcessScenarioInput,
} from '../../src/index.js'
import { parseEvidenceText } from '../../src/front-end.js'
import { WAIT_SETTLE_MS } from '../../src/scenario/event-dispatch.js'
import { NAMED_KEYS } from '../../src/scenario/key-names.js'
import { encodeKeys } from '../../src/screen/keys.js'
import { program } from '../helpers/fixtures.js'

const stream = (evidence: Evidence): string => evidence.terminal.chunks.map((chunk) => chunk.data).join('')

const lastScreen = (evidence: Evidence): string[] => {
  const frame = evidence.terminal.frames.at(-1)
  return frame?.status === 'retained' ? frame.lines.filter((line) => line !== '') : []
}

/** Captures in batches, so a 2-core machine is busy but not swamped. */
async function captureAll(scenarios: readonly ProcessScenarioInput[], batch = 6): Promise<Evidence[]> {
  const results: Evidence[] = []
  for (let start = 0; start < scenarios.length; start += batch) {
    results.push(...(await Promise.all(scenarios.slice(start, start + batch).map((s) => captureProcess(s)))))
  }
  // Every capture also survives import: its derived facts (waits, replies, key bytes) are consistent.
  return results.map((evidence) => parseEvidenceText(serializeEvidence(evidence)))
}

const prompted = (delayArguments: string[] = []): ProcessScenarioInput => ({
  executable: program('delayed-prompt.mjs'),
  arguments: delayArguments,
  events: [{ type: 'input', data: 'Ada\r', after: { screen: 'Name?' } }],
})

describe('events that wait for what the program shows', () => {
  test('a prompt shown after a random 200–1,500 ms gets its answer in every run, and the runs compare equal', async () => {
    const captures = await captureAll(Array.from({ length: 30 }, () => prompted()))
    for (const evidence of captures) {
      expect(evidence.exit.code).toBe(0)
      expect(lastScreen(evidence)).toEqual(['Name? Ada', 'Hello, Ada!'])
      expect(evidence.interactions[0]).toMatchObject({
        outcome: 'dispatched',
        wait: { met_at_ms: expect.any(Number) },
      })
    }
    const [first, ...rest] = captures as [Evidence, ...Evidence[]]
    for (const other of rest) {
      const comparison = compareCaptures(first, other)
      // The exit time follows the random delay: the timing policy judges that, not the wait.
      expect(comparison.dimensions.terminal.outcome).toBe('equal')
      expect(comparison.dimensions.interaction.outcome).toBe('equal')
    }
  })

  test('with the delay spread within the timing tolerance, whole comparisons are equivalent', async () => {
    const captures = await captureAll(
      Array.from({ length: 8 }, () => prompted(['--delay', String(600 + Math.floor(Math.random() * 200))])),
    )
    const [first, ...rest] = captures as [Evidence, ...Evidence[]]
    for (const other of rest) {
      expect(compareCaptures(first, other).verdict).toBe('equivalent')
    }
  })

  test('when a waited event went in decides only under strict timing', async () => {
    const [fast, slow] = await captureAll([prompted(['--delay', '200']), prompted(['--delay', '1400'])])
    for (const timing of ['tolerant', 'ignore', { tolerance_ms: 0, ratio: 0 }] as const) {
      const interaction = compareCaptures(fast!, slow!, { timing }).dimensions.interaction
      expect(interaction.outcome, JSON.stringify(timing)).toBe('equal')
      expect(interaction.notes.join('\n')).toMatch(/what it waited for was shown at \d+ ms in the authority/)
    }
    const strict = compareCaptures(fast!, slow!, { timing: 'strict' }).dimensions.interaction
    expect(strict.outcome).toBe('different')
    expect(strict.differences.map((difference) => difference.field)).toEqual(
      expect.arrayContaining([
        'interactions[event_index=0].at_ms',
        'interactions[event_index=0].wait.met_at_ms',
      ]),
    )
  })

  test('the same answer typed at a guessed 100 ms lands before the prompt: the screen differs (why waits exist)', async () => {
    const [waited, guessed] = await captureAll([
      prompted(['--delay', '600']),
      {
        executable: program('delayed-prompt.mjs'),
        arguments: ['--delay', '600'],
        events: [{ type: 'input', at_ms: 100, data: 'Ada\r' }],
      },
    ])
    // The terminal echoes typed input at once, before the program has printed its prompt.
    expect(lastScreen(guessed!)[0]).toBe('Ada')
    expect(lastScreen(waited!)[0]).toBe('Name? Ada')
  })

  test('a screen wait finds a prompt drawn with cursor movement, an output wait does not', async () => {
    const [screen, output] = await captureAll([
      {
        executable: program('delayed-prompt.mjs'),
        arguments: ['--delay', '100', '--draw'],
        events: [{ type: 'input', data: 'Ada\r', after: { screen: 'Name?' } }],
      },
      {
        executable: program('delayed-prompt.mjs'),
        arguments: ['--delay', '100', '--draw'],
        events: [{ type: 'input', data: 'Ada\r', after: { output: 'Name?', within_ms: 1500 } }],
        timeout_ms: 4000,
      },
    ])
    expect(screen!.interactions[0]).toMatchObject({ outcome: 'dispatched' })
    expect(lastScreen(screen!)).toContain('Hello, Ada!')
    expect(output!.interactions[0]).toMatchObject({
      outcome: 'skipped',
      reason: 'wait_timed_out',
      wait: { met_at_ms: null },
    })
  })

  test('a wait that never matches ends by within_ms and the capture finishes normally', async () => {
    const [evidence] = await captureAll([
      {
        executable: 'bash',
        // The program reads after "bye", so the event released by it always finds the target alive
        // (a program that exits right after printing would make the dispatch race its exit).
        arguments: ['-c', 'echo hello; sleep 1.5; echo bye; read -r -t 10 line'],
        events: [
          { type: 'input', data: 'x\r', after: { output: 'never printed', within_ms: 300 } },
          { type: 'input', data: 'y\r', after: { output: 'bye' } },
        ],
      },
    ])
    expect(evidence!.disposition).toBe('exited')
    expect(evidence!.exit.code).toBe(0)
    expect(evidence!.interactions.map((interaction) => [interaction.outcome, interaction.reason])).toEqual([
      ['skipped', 'wait_timed_out'],
      // The next event waited for its own condition, which the program then showed.
      ['dispatched', undefined],
    ])
  })

  test('output beyond limits.output_bytes still satisfies an output wait, and the journal shows it first', async () => {
    const [evidence] = await captureAll([
      {
        executable: 'bash',
        arguments: ['-c', 'printf "Name: "; read -r name; echo "got $name"'],
        events: [{ type: 'input', data: 'Ada\r', after: { output: 'Name: ' } }],
        limits: { output_bytes: 4 },
      },
    ])
    const interaction = evidence!.interactions[0]!
    expect(interaction.outcome).toBe('dispatched')
    // The omitted chunk that held the prompt comes before the event it released, and the checkpoint frame
    // before the event is omitted for the gap rather than rendered from output that came before it.
    expect(evidence!.terminal.omitted_chunks[0]!.sequence).toBeLessThan(interaction.sequence)
    expect(evidence!.terminal.frames.find((frame) => frame.trigger === 'before_event')).toMatchObject({
      status: 'omitted',
      reason: 'raw_terminal_gap',
    })
  })

  test('output_regex with quiet_ms waits for the match and then for silence', async () => {
    const [evidence] = await captureAll([
      {
        executable: 'bash',
        arguments: ['-c', 'printf "menu\\n> "; sleep 0.3; printf "late\\n"; read line; echo "got $line"'],
        events: [{ type: 'input', data: 'ok\r', after: { output_regex: '^> ', quiet_ms: 500 } }],
      },
    ])
    const interaction = evidence!.interactions[0]!
    expect(interaction.outcome).toBe('dispatched')
    // Sent only after "late" arrived and the output then stayed quiet for 500 ms.
    const late = evidence!.terminal.chunks.find((chunk) => chunk.data.includes('late'))!
    expect(interaction.at_ms).toBeGreaterThanOrEqual(late.at_ms + 500)
    expect(lastScreen(evidence!)).toContain('got ok')
  })
})

describe('waits that hold on programs that draw in several writes', () => {
  test('a box drawn in two writes 50 ms apart, waited on by its first line: every checkpoint holds the whole box', async () => {
    const captures = await captureAll(
      Array.from({ length: 10 }, () => ({
        executable: program('two-write-box.mjs'),
        events: [{ type: 'input', data: 'q', after: { screen: 'Settings' } }],
        timeout_ms: 20_000,
      })),
    )
    // A saturated CI host can stretch the program's own 50 ms timer past the settle: its output then really was
    // quiet for WAIT_SETTLE_MS, and meeting the wait on the first line is right. The gap REA saw is in the
    // Evidence (chunk times); every capture whose gap stayed clearly under the settle must hold the whole box,
    // and most must have stayed under it, so the test cannot pass by skipping them all.
    const drawnAt = (evidence: Evidence, text: string): number =>
      evidence.terminal.chunks.find((chunk) => chunk.data.includes(text))?.at_ms ?? Infinity
    const heldGap = captures.filter(
      (evidence) => drawnAt(evidence, 'colour') - drawnAt(evidence, 'Settings') < WAIT_SETTLE_MS - 20,
    )
    expect(heldGap.length).toBeGreaterThanOrEqual(5)
    for (const evidence of heldGap) {
      const frame = evidence.terminal.frames.find((candidate) => candidate.trigger === 'before_event')
      expect(frame?.status === 'retained' ? frame.lines.slice(0, 4) : []).toEqual([
        '┌─ Settings ─────────┐',
        '│ colour: on         │',
        '│ sound:  off        │',
        '└────────────────────┘',
      ])
    }
    for (const evidence of captures) {
      expect(evidence.interactions[0]).toMatchObject({ wait: { settle: 'quiet' } })
    }
  })

  test('quiet_ms 0 meets the wait at the match, as before the settle: the checkpoint may show half the box', async () => {
    const [evidence] = await captureAll([
      {
        executable: program('two-write-box.mjs'),
        arguments: ['--gap', '1000'],
        events: [{ type: 'input', data: 'q', after: { screen: 'Settings', quiet_ms: 0 } }],
        timeout_ms: 20_000,
      },
    ])
    const frame = evidence!.terminal.frames.find((candidate) => candidate.trigger === 'before_event')
    expect(frame?.status === 'retained' ? frame.lines.filter((line) => line !== '') : []).toEqual([
      '┌─ Settings ─────────┐',
    ])
    expect(evidence!.interactions[0]!.wait).not.toHaveProperty('settle')
  })

  test('a program that never stops drawing still meets a settling wait, at the settle limit', async ({
    annotate,
  }) => {
    const [evidence] = await captureAll([
      {
        executable: program('spinner-prompt.mjs'),
        events: [{ type: 'input', data: 'Ada\r', after: { screen: 'Name?' } }],
        timeout_ms: 20_000,
      },
    ])
    // Without the limit the wait would hold until the run's deadline: the output never goes quiet.
    const interaction = evidence!.interactions[0]!
    expect(interaction).toMatchObject({ outcome: 'dispatched', wait: { met_at_ms: expect.any(Number) } })
    expect(stream(evidence!)).toContain('got Ada')
    // A machine that stalls the spinner for the settle time lets it settle quietly instead: recorded, not asserted.
    await annotate(`the wait settled: ${String(interaction.wait?.settle)}`)
  })

  test('quiet_ms alone waits after a key the program ignores, which draws nothing', async () => {
    const [evidence] = await captureAll([
      {
        executable: program('key-reader.mjs'),
        arguments: ['--ignore', 'x'],
        events: [
          { type: 'input', keys: ['x'], after: { screen: 'ready' } },
          { type: 'input', keys: ['q'], after: { quiet_ms: 300 } },
        ],
        timeout_ms: 20_000,
      },
    ])
    const [ignored, next] = evidence!.interactions
    expect(next).toMatchObject({ outcome: 'dispatched', wait: { met_at_ms: expect.any(Number) } })
    // Nothing was drawn after the ignored key: the quiet counts from when it went in.
    expect(next!.wait!.met_at_ms!).toBeGreaterThanOrEqual(ignored!.at_ms + 300)
    expect(stream(evidence!)).not.toContain('read 78')
    expect(evidence!.exit).toMatchObject({ code: 0 })
  })
})

describe('screen waits read the screen as drawn, after the previous event went in', () => {
  const frameBefore = (evidence: Evidence, eventIndex: number): string[] => {
    const frame = evidence.terminal.frames.find(
      (candidate) => candidate.trigger === 'before_event' && candidate.event_index === eventIndex,
    )
    return frame?.status === 'retained' ? frame.lines : []
  }

  test('a prompt that ends in a space is found, as a literal and as a regex anchored at the line end', async () => {
    const captures = await captureAll(
      [{ screen: 'Name? ' }, { screen_regex: 'Name\\? $' }].map((after) => ({
        executable: program('delayed-prompt.mjs'),
        arguments: ['--delay', '100'],
        events: [{ type: 'input', data: 'Ada\r', after: { ...after, within_ms: 5000 } }],
        timeout_ms: 10_000,
      })),
    )
    for (const evidence of captures) {
      expect(evidence.interactions[0]).toMatchObject({ outcome: 'dispatched' })
      expect(lastScreen(evidence)).toEqual(['Name? Ada', 'Hello, Ada!'])
    }
  })

  test('the page an input is about to replace does not meet the next wait: the key goes in on page 2', async () => {
    const [evidence] = await captureAll([
      {
        executable: program('pager.mjs'),
        arguments: ['--redraw-ms', '300'],
        events: [
          { type: 'input', data: ' ', after: { screen: '-- More --' } },
          { type: 'input', data: 'q', after: { screen: '-- More --' } },
        ],
      },
    ])
    expect(evidence!.interactions.map((interaction) => interaction.outcome)).toEqual([
      'dispatched',
      'dispatched',
    ])
    expect(frameBefore(evidence!, 1)[0]).toBe('page 2 line 1')
    expect(lastScreen(evidence!)).toContain('read on page 2')
  })

  test('gone waits until the text has left the screen (a mode line after Escape)', async () => {
    const [evidence] = await captureAll([
      {
        executable: program('mode-line.mjs'),
        arguments: ['--redraw-ms', '300'],
        events: [
          { type: 'input', keys: ['Escape'], after: { screen: '-- INSERT --' } },
          { type: 'input', data: 'x', after: { gone: '-- INSERT --', within_ms: 10_000 } },
        ],
      },
    ])
    expect(evidence!.interactions.map((interaction) => interaction.outcome)).toEqual([
      'dispatched',
      'dispatched',
    ])
    expect(frameBefore(evidence!, 1).join('\n')).not.toContain('-- INSERT --')
    expect(lastScreen(evidence!)).toContain('read 78 in normal mode')
  })
})

const vim = spawnSync('vim', ['--version']).status === 0

test.skipIf(!vim)('real vim: Escape leaves insert mode, and gone sees its mode line go', async () => {
  const [evidence] = await captureAll([
    {
      executable: 'vim',
      arguments: ['-u', 'NONE', '-N', '-i', 'NONE', '-n'],
      events: [
        { type: 'input', data: 'i', after: { screen: '~' } },
        { type: 'input', data: 'hello', after: { screen: '-- INSERT --' } },
        { type: 'input', keys: ['Escape'], after: { screen: 'hello' } },
        { type: 'input', data: ':q!\r', after: { gone: '-- INSERT --', within_ms: 10_000 } },
      ],
      timeout_ms: 30_000,
    },
  ])
  expect(evidence!.interactions.map((interaction) => interaction.outcome)).toEqual(
    Array.from({ length: 4 }, () => 'dispatched'),
  )
  expect(evidence!.exit.code).toBe(0)
})

describe('skip causes: who ended an event’s chance', () => {
  const waitsForever = (extra: Partial<ProcessScenarioInput> = {}): ProcessScenarioInput => ({
    executable: 'bash',
    arguments: ['-c', 'echo ready; sleep 30'],
    events: [
      { type: 'input', data: 'x\r', after: { screen: 'never shown' } },
      { type: 'input', at_ms: 900, data: 'y\r' },
    ],
    ...extra,
  })

  test('a wait still open at timeout_ms is skipped for the deadline, not blamed on the program', async () => {
    const [timeout, idle] = await captureAll([
      waitsForever({ timeout_ms: 1000 }),
      waitsForever({ idle_timeout_ms: 400 }),
    ])
    expect(timeout!.exit.reason).toBe('timeout')
    expect(timeout!.interactions.map((interaction) => [interaction.cause, interaction.reason])).toEqual([
      ['deadline', "REA's timeout_ms (1000 ms) ended the run before the event was due"],
      ['deadline', "REA's timeout_ms (1000 ms) ended the run before the event was due"],
    ])
    expect(idle!.exit.reason).toBe('idle_timeout')
    expect(idle!.interactions[0]).toMatchObject({
      outcome: 'skipped',
      cause: 'deadline',
      reason: "REA's idle_timeout_ms (400 ms without output) ended the run before the event was due",
      wait: { met_at_ms: null },
    })
  })

  test('a cancelled capture skips its waiting event as cancelled', async () => {
    const controller = new AbortController()
    const evidence = await captureProcess(waitsForever(), {
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.phase === 'running') {
          controller.abort()
        }
      },
    })
    expect(evidence.disposition).toBe('cancelled')
    expect(evidence.interactions[0]).toMatchObject({
      outcome: 'skipped',
      cause: 'cancelled',
      reason: 'the capture was cancelled before the event was due',
    })
  })

  test('a program that exits first skips the wait as target_exited, its own wait_timed_out as its own', async () => {
    const [exited, timedOut] = await captureAll([
      { ...waitsForever(), arguments: ['-c', 'echo bye'] },
      {
        ...waitsForever(),
        events: [{ type: 'input', data: 'x\r', after: { screen: 'never shown', within_ms: 200 } }],
        timeout_ms: 3000,
        arguments: ['-c', 'echo ready; sleep 1'],
      },
    ])
    expect(exited!.interactions.map((interaction) => interaction.cause)).toEqual([
      'target_exited',
      'target_exited',
    ])
    expect(timedOut!.interactions[0]).toMatchObject({ cause: 'wait_timed_out', reason: 'wait_timed_out' })
  })

  test('two captures whose waits were ended by different hands differ in the interaction dimension', async () => {
    const [deadline, exited] = await captureAll([
      waitsForever({ timeout_ms: 1000 }),
      { ...waitsForever({ timeout_ms: 1000 }), arguments: ['-c', 'echo ready'] },
    ])
    const interaction = compareCaptures(deadline!, exited!).dimensions.interaction
    expect(interaction.differences[0]).toMatchObject({
      field: 'interactions[event_index=0].reason',
      authority: 'deadline',
      reconstruction: 'target_exited',
    })
  })
})

describe('terminal replies', () => {
  test('a program that asks for the cursor position gets a well-formed reply; with answer_queries false it gets none', async () => {
    const [answered, silent] = await captureAll([
      { executable: program('cursor-query.mjs') },
      {
        executable: program('cursor-query.mjs'),
        arguments: ['--wait', '300'],
        terminal: { answer_queries: false },
      },
    ])
    expect(lastScreen(answered!)).toContain('got: \\e[1;4R')
    expect(answered!.terminal.replies).toEqual([
      expect.objectContaining({ query: 'cursor_position', reply: '\x1b[1;4R', byte_length: 6 }),
    ])
    expect(answered!.commitments.comparison_contract.value.terminal.answer_queries).toBe(true)
    expect(lastScreen(silent!)).toContain('got: none')
    expect(silent!.terminal.replies).toBeUndefined()
    expect(silent!.commitments.comparison_contract.value.terminal).not.toHaveProperty('answer_queries')
  })
})

describe('terminal replies across chunks', () => {
  test('a query the program writes in two pieces, read as two chunks, is answered once complete', async () => {
    const [evidence] = await captureAll([
      { executable: program('cursor-query.mjs'), arguments: ['--split', '--wait', '5000'] },
    ])
    // The pieces arrived as separate chunks: the first ends with the open sequence.
    expect(evidence!.terminal.chunks.some((chunk) => chunk.data.endsWith('abc\x1b['))).toBe(true)
    expect(lastScreen(evidence!)).toContain('got: \\e[1;4R')
    expect(evidence!.terminal.replies).toEqual([
      expect.objectContaining({ query: 'cursor_position', reply: '\x1b[1;4R' }),
    ])
  })
})

describe('keys', () => {
  test.each([false, true])(
    'sends every documented key name as a real terminal does (application mode: %s)',
    async (app) => {
      const names = [...NAMED_KEYS, 'Ctrl+C', 'Ctrl+d', 'Alt+x', 'Alt+Up', 'a', 'q']
      const [evidence] = await captureAll([
        {
          executable: program('key-reader.mjs'),
          arguments: app ? ['--app'] : [],
          events: [{ type: 'input', keys: names, after: { output: 'ready' } }],
        },
      ])
      const read = evidence!.terminal.chunks
        .map((chunk) => chunk.data)
        .join('')
        .split('\n')
        .filter((line) => line.startsWith('read '))
        .map((line) => line.slice('read '.length).trim())
        .join('')
      const expected = Buffer.from(encodeKeys(names, { applicationCursorKeys: app }))
      expect(read).toBe(expected.toString('hex'))
      expect(evidence!.interactions[0]).toMatchObject({ outcome: 'dispatched', bytes_sent: expected.length })
      expect(evidence!.commitments.comparison_contract.value.events[0]).toMatchObject({ keys: names })
    },
  )

  test('sensitive keys are sent but persisted as a count and masked in output', async () => {
    const [evidence] = await captureAll([
      {
        executable: 'bash',
        arguments: ['-c', 'echo ready; read -r secret; echo "you typed $secret"'],
        events: [
          {
            type: 'input',
            keys: ['h', 'u', 'n', 't', 'e', 'r', '2', 'Enter'],
            sensitive: true,
            after: { output: 'ready' },
          },
        ],
      },
    ])
    const text = serializeEvidence(evidence!)
    expect(text).not.toContain('hunter2')
    expect(evidence!.commitments.comparison_contract.value.events[0]).toEqual({
      type: 'input',
      after: { output: 'ready' },
      sensitive: true,
      key_count: 8,
    })
    expect(lastScreen(evidence!)).toContain('you typed *******')
  })
})
