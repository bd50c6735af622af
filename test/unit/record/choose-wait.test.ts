import { describe, expect, test } from 'vitest'
import { spanFinder, normalizationRules } from '../../../src/record/avoided-spans.js'
import { chooseWait, cleanSegment, RECORDED_QUIET_MS } from '../../../src/record/choose-wait.js'
import { screen as screenOf } from '../../helpers/record-timeline.js'

const context = {
  root: '/work/project',
  workingDirectory: '/work/project',
  environment: { HOME: '/home/ada' },
}
const find = spanFinder(normalizationRules(context), () => ['hunter22'])
const screen = (rows: string[], cursorRow = rows.length - 1) =>
  screenOf(rows, { cursor: [cursorRow, Array.from(rows[cursorRow] ?? '').length] })
const empty = screen([], 0)

describe('chooseWait', () => {
  test('waits for the prompt on the cursor row, trailing space included, with quiet when the program was quiet', () => {
    expect(chooseWait(empty, screen(['Welcome', 'Name? ']), 250, find, true)).toEqual({
      condition: { screen: 'Name? ', quiet_ms: RECORDED_QUIET_MS },
      avoided: [],
    })
  })

  test('asks for no quiet when the person typed while the program was still drawing', () => {
    expect(chooseWait(empty, screen(['Name? ']), 20, find, true)?.condition).toEqual({ screen: 'Name? ' })
  })

  test('prefers text that was nowhere on the previous screen, even without its indentation', () => {
    const before = screen(['Pick:', '  Apple', '> Banana', '  Cherry'], 3)
    const after = screen(['Pick:', '> Apple', '  Banana', '  Cherry'], 3)
    expect(chooseWait(before, after, 500, find, true)?.condition.screen).toBe('> Apple')
  })

  test('never waits for text a filter or placeholder replaces, and names the rules it avoided', () => {
    const choice = chooseWait(empty, screen(['Loaded in 854ms. Continue? ']), 500, find, true)
    expect(choice).toEqual({
      condition: { screen: '. Continue? ', quiet_ms: RECORDED_QUIET_MS },
      avoided: ['durations'],
    })
    expect(chooseWait(empty, screen(['/work/project/src $ ']), 500, find, true)?.condition.screen).toBe(
      '/src $ ',
    )
  })

  test('never waits for a secret the program printed back', () => {
    expect(
      chooseWait(empty, screen(['Your password hunter22 is weak']), 500, find, true)?.condition.screen,
    ).toBe(' is weak')
  })

  test('uses a row the program redrew unchanged (after a resize) only when it drew something', () => {
    const same = screen(['Pick:', '> Apple'])
    expect(chooseWait(same, same, 500, find, false)).toBeUndefined()
    expect(chooseWait(same, same, 500, find, true)?.condition.screen).toBe('> Apple')
  })

  test('finds nothing when only blank rows changed', () => {
    expect(chooseWait(screen(['a', 'x']), screen(['a', '']), 500, find, false)).toBeUndefined()
  })
})

describe('cleanSegment', () => {
  test('keeps one trailing space of a padded row and picks the last segment with two visible characters', () => {
    expect(cleanSegment('Status: ok          ', [])).toBe('Status: ok ')
    expect(cleanSegment('took 12ms > ', [{ start: 5, end: 9, label: 'durations', replacement: '' }])).toBe(
      'took ',
    )
    expect(cleanSegment('took 12ms >> ', [{ start: 5, end: 9, label: 'durations', replacement: '' }])).toBe(
      ' >> ',
    )
  })
})
