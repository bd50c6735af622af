import { describe, expect, test } from 'vitest'
import { normalizationRules } from '../../../src/record/avoided-spans.js'
import { buildRecordedScenario } from '../../../src/record/build-scenario.js'
import type { KeystrokeEntry, RecordedTimeline } from '../../../src/record/timeline.js'
import { keys as entry, screen, timeline as timelineOf } from '../../helpers/record-timeline.js'

const ROOT = '/work/project'
const rules = normalizationRules({ root: ROOT, workingDirectory: ROOT, environment: { HOME: '/home/ada' } })

const keys = (input: string, output: string, rows: string[], echo = true): KeystrokeEntry =>
  entry(100, input, output, rows, { echo, canonical: true })

const timeline = (entries: KeystrokeEntry[], tail = '', duration_ms = 1000): RecordedTimeline =>
  timelineOf(entries, screen([]), { columns: 100, rows: 30, tail, duration_ms })

describe('buildRecordedScenario', () => {
  test('writes the command relative to the capture root, the starting size and the events', () => {
    const built = buildRecordedScenario(
      timeline([keys('y\r', 'Go? ', ['Go? '])]),
      {
        executable: `${ROOT}/bin/tool.mjs`,
        arguments: [`${ROOT}/data/in.txt`, '--flag', '/etc/hosts'],
        root: ROOT,
      },
      rules,
    )
    expect(built.scenario).toEqual({
      executable: './bin/tool.mjs',
      arguments: ['data/in.txt', '--flag', '/etc/hosts'],
      terminal: { columns: 100, rows: 30 },
      events: [{ type: 'input', after: { screen: 'Go? ', quiet_ms: 100 }, data: 'y\r' }],
    })
  })

  test('proposes the filters and placeholders whose values the output holds, keeping the test defaults', () => {
    const built = buildRecordedScenario(
      timeline([keys('y\r', `Built ${ROOT}/out in 1.2s at 12:00:01\r\nGo? `, ['Built …', 'Go? '])]),
      { executable: 'tool', arguments: [], root: ROOT, basePlaceholders: ['root', 'cwd', 'home', 'tmpdir'] },
      rules,
    )
    expect(built.proposed).toEqual({
      placeholders: ['root', 'cwd', 'tmpdir', 'home'],
      filters: ['timestamps', 'durations'],
    })
    expect(built.scenario.normalization).toEqual(built.proposed)
  })

  test('proposes nothing for output without such values, and leaves normalization out', () => {
    const built = buildRecordedScenario(
      timeline([keys('y\r', 'Go? ', ['Go? '])]),
      { executable: 'tool', arguments: [], root: ROOT },
      rules,
    )
    expect(built.proposed).toEqual({ placeholders: [], filters: [] })
    expect(built.scenario).not.toHaveProperty('normalization')
  })

  test('keeps secrets out of the scenario and out of every wait', () => {
    const built = buildRecordedScenario(
      timeline([
        keys('hunter22\r', 'Password: ', ['Password: '], false),
        keys('q', '\r\nhunter22 is weak. Quit? ', ['Password: ', 'hunter22 is weak. Quit? ']),
      ]),
      { executable: 'tool', arguments: [], root: ROOT },
      rules,
    )
    const text = JSON.stringify(built.scenario)
    expect(text).not.toContain('hunter22')
    expect(built.scenario.events?.[1]).toMatchObject({ after: { screen: ' is weak. Quit? ' } })
    expect(built.events[0]?.secret).toBe('hunter22\r')
  })

  test('gives a long session a deadline that leaves room for a slower replay', () => {
    const built = buildRecordedScenario(
      timeline([], 'bye', 40_000),
      { executable: 'tool', arguments: [], root: ROOT },
      rules,
    )
    expect(built.scenario.timeout_ms).toBe(80_000)
  })
})
