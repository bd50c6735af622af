import { describe, expect, test } from 'vitest'
import { splitFields, type Field } from '../../../src/record/fields.js'
import { judgeField } from '../../../src/record/judge-field.js'
import type { ScreenSnapshot } from '../../../src/record/timeline.js'
import { ECHO, keys, RAW, screen, SILENT_LINE, timeline } from '../../helpers/record-timeline.js'

/** One field typed key by key in raw mode: `screens[i]` is what the program showed before key i. */
function judgeKeys(
  typed: readonly string[],
  screens: readonly ScreenSnapshot[],
  final: ScreenSnapshot,
  modes = RAW,
) {
  const entries = typed.map((input, index) =>
    keys(
      100 * (index + 1),
      input,
      index === 0 ? 'prompt' : 'redraw',
      screens[index] as ScreenSnapshot,
      modes,
    ),
  )
  const [field] = splitFields(timeline(entries, final, { tail: 'answer' }))
  return judgeField(field as Field, 80)
}
const line = (text: string, column = Array.from(text).length, visible = true) =>
  screen([text], { cursor: [0, column], visible })

describe('judgeField', () => {
  test('a line typed with echo off in line mode is a secret, whatever was drawn', () => {
    expect(judgeKeys(['pw\r'], [line('Code: ')], line('Code: '), SILENT_LINE)).toEqual({
      secret: true,
      reason: 'echo_off',
    })
  })

  test('a line the terminal echoed is clear', () => {
    expect(judgeKeys(['x\r'], [line('Name? ')], line('Name? x'), ECHO)).toEqual({
      secret: false,
      reason: 'terminal_echo',
    })
  })

  test('masks drawn at the field make it a secret (Inquirer, prompts, enquirer)', () => {
    const screens = ['', '*', '**'].map((masks) =>
      line(`? Password ${masks}`.trimEnd() + (masks === '' ? ' ' : '')),
    )
    expect(
      judgeKeys(['a', 'b', 'c', '\r'], [...screens, line('? Password ***')], line('✔ Password')),
    ).toEqual({
      secret: true,
      reason: 'masked',
    })
  })

  test("clack's masks two rows above a hidden cursor, with its concealed cursor cell blanked, make it a secret", () => {
    const clack = (masks: string) =>
      screen(['│', '◆  Password', `│  ${masks}_`, '└', ''], {
        cursor: [4, 0],
        visible: false,
        textRows: ['│', '◆  Password', `│  ${masks}`, '└', ''],
      })
    expect(judgeKeys(['a', 'b', '\r'], [clack(''), clack('▪'), clack('▪▪')], clack('▪▪'))).toEqual({
      secret: true,
      reason: 'masked',
    })
  })

  test('a field redrawn unchanged ([input is masked]) is a secret', () => {
    const masked = line('? Password [input is masked]', 28, false)
    expect(judgeKeys(['a', 'b', '\r'], [masked, masked, masked], line('✔ Password'))).toEqual({
      secret: true,
      reason: 'nothing_drawn',
    })
  })

  test('the typed text drawn at the field makes it clear, also when the program lags one key behind', () => {
    expect(
      judgeKeys(
        ['A', 'd', 'a', '\r'],
        [line('? Name '), line('? Name A'), line('? Name A'), line('? Name Ada')],
        line('✔ Name Ada'),
      ),
    ).toEqual({ secret: false, reason: 'shown_as_typed' })
  })

  test('text at the field that is neither the typed text nor masks is uncertain, and uncertain is secret', () => {
    expect(
      judgeKeys(['a', 'b', '\r'], [line('Code: '), line('Code: Q'), line('Code: QZ')], line('Code: ok')),
    ).toEqual({
      secret: true,
      reason: 'uncertain',
    })
  })

  test('a field whose every key went unanswered is uncertain, hence secret', () => {
    const entries = [
      keys(100, 'a', 'Code: ', line('Code: '), RAW),
      keys(200, 'b', '', line('Code: '), RAW),
      keys(300, '\r', '', line('Code: '), RAW),
    ]
    const [field] = splitFields(timeline(entries, line('Code: ')))
    expect(judgeField(field as Field, 80)).toEqual({ secret: true, reason: 'uncertain' })
  })

  test('arrow keys and Enter alone type nothing to hide', () => {
    const menu = screen(['? Pick', '❯ a', '  b'], { cursor: [2, 3], visible: false })
    expect(judgeKeys(['\u001b[B', '\r'], [menu, menu], menu)).toEqual({
      secret: false,
      reason: 'nothing_typed',
    })
  })

  test('one key without Enter that the program never drew is a command (a pager’s q)', () => {
    const entries = [keys(100, 'q', 'start', line('start'), RAW)]
    const [field] = splitFields(timeline(entries, line('start')))
    expect(judgeField(field as Field, 80)).toEqual({ secret: false, reason: 'single_key' })
  })
})

/**
 * A fast typist's next key makes the recorder read the screen between a prompt library's erase (`ESC[2K ESC[G`,
 * clack's erase down) and its drawing of the line: such a screen neither ends the field nor judges it.
 */
describe('a screen read in the middle of a redraw', () => {
  const erased = screen([''], { cursor: [0, 0] })
  const fieldOf = (typed: readonly string[], screens: readonly ScreenSnapshot[], final: ScreenSnapshot) => {
    const entries = typed.map((input, index) =>
      keys(100 * (index + 1), input, 'redraw', screens[index] as ScreenSnapshot, RAW),
    )
    return splitFields(timeline(entries, final, { tail: 'answer' }))
  }

  test('an Inquirer name field read blank twice stays one field, and clear', () => {
    const fields = fieldOf(
      ['g', 'r', 'a', 'c', 'e', '7', '\r'],
      [
        line('? Your name '),
        line('? Your name g'),
        erased,
        line('? Your name gra'),
        line('? Your name grac'),
        line('? Your name grace'),
        erased,
      ],
      line('✔ Your name grace7'),
    )
    expect(fields).toHaveLength(1)
    expect((fields[0] as Field).keys).toHaveLength(7)
    expect(judgeField(fields[0] as Field, 80)).toEqual({ secret: false, reason: 'shown_as_typed' })
  })

  test("clack's field erased below the prompt and not drawn yet is no evidence of nothing drawn", () => {
    const clack = (text: string) =>
      screen(['│', '◆  Your name', `│  ${text}_`, '└', ''], {
        cursor: [4, 0],
        visible: false,
        textRows: ['│', '◆  Your name', `│  ${text}`, '└', ''],
      })
    const midRedraw = screen(['│', '', '', '', ''], { cursor: [1, 0], visible: false })
    const fields = fieldOf(
      ['g', 'r', 'a', '\r'],
      [clack(''), clack('g'), midRedraw, midRedraw],
      screen(['│', '◇  Your name', '│  gra', '', '']),
    )
    expect(fields).toHaveLength(1)
    expect(judgeField(fields[0] as Field, 80)).toEqual({ secret: false, reason: 'shown_as_typed' })
  })

  test('a password field read blank between masks stays one field, and secret', () => {
    const fields = fieldOf(
      ['a', 'b', 'c', '\r'],
      [line('? Password '), line('? Password *'), erased, line('? Password ***')],
      line('✔ Password'),
    )
    expect(fields).toHaveLength(1)
    expect(judgeField(fields[0] as Field, 80)).toEqual({ secret: true, reason: 'masked' })
  })

  test('a prompt erased and never drawn again keeps its keys in one field, judged uncertain, hence secret', () => {
    const fields = fieldOf(['a', 'b', 'c', '\r'], [line('PIN: '), erased, erased, erased], erased)
    expect(fields).toHaveLength(1)
    expect(judgeField(fields[0] as Field, 80)).toEqual({ secret: true, reason: 'uncertain' })
  })

  test('one key whose answer was read mid-redraw is not a command: unsure, hence secret', () => {
    const entries = [keys(100, 'x', 'start', line('Key: '), RAW)]
    const [field] = splitFields(timeline(entries, erased, { tail: '\u001b[2K\r' }))
    expect(judgeField(field as Field, 80)).toEqual({ secret: true, reason: 'uncertain' })
  })
})

describe('a screen read while the program was still writing', () => {
  /** Keys typed 10 ms apart: each screen before a key read 2 ms after the program's last write. */
  const fastField = (typed: readonly string[], screens: readonly ScreenSnapshot[], final: ScreenSnapshot) => {
    const entries = typed.map((input, index) => ({
      ...keys(10 * (index + 1), input, 'redraw', screens[index] as ScreenSnapshot, RAW),
      quiet_ms: index === 0 ? 500 : 2,
    }))
    return splitFields(timeline(entries, final, { tail: 'answer' }))
  }

  test("Inquirer 8's cursor moved for a key, its line not drawn yet, is no evidence of nothing drawn", () => {
    const fields = fastField(
      ['g', 'r', 'a', '\r'],
      [
        line('? Your name '),
        screen(['? Your name'], { cursor: [0, 13] }),
        screen(['? Your name g'], { cursor: [0, 0] }),
        line('? Your name gra'),
      ],
      line('✔ Your name gra'),
    )
    expect(fields).toHaveLength(1)
    expect(judgeField(fields[0] as Field, 80)).toEqual({ secret: false, reason: 'shown_as_typed' })
  })

  test('a password field redrawn unchanged, read only while the program was writing, is still a secret', () => {
    const masked = line('? Password [input is masked]')
    const fields = fastField(
      ['a', 'b', 'c', '\r'],
      [line('? Password '), masked, masked, masked],
      line('✔ Password'),
    )
    expect(fields).toHaveLength(1)
    expect(judgeField(fields[0] as Field, 80)).toEqual({ secret: true, reason: 'uncertain' })
  })

  test('a key typed where the next prompt was already drawn, the program quiet, still starts a new field', () => {
    const entries = [
      keys(100, 'y', 'Continue? ', line('Continue? '), RAW),
      keys(200, 'A', 'Name? ', screen(['Continue? y', 'Name? ']), RAW),
    ]
    expect(splitFields(timeline(entries, screen(['Continue? y', 'Name? A'])))).toHaveLength(2)
  })
})

describe('a program lagging behind fast keys', () => {
  test('a name whose answers all showed earlier text is judged from the screen at the next field', () => {
    // Inquirer 8 on a loaded machine: each key's answer shows an earlier line, and so does the answer to Enter.
    const entries = [
      keys(100, 'g', 'prompt', line('? Your name '), RAW),
      keys(110, 'r', '', line('? Your name '), RAW),
      keys(120, 'a', 'g', line('? Your name g'), RAW),
      keys(130, '\r', 'gr', line('? Your name gr'), RAW),
      keys(900, 'x', 'done', screen(['✔ Your name gra', '? Password ']), RAW),
      keys(1000, '\r', '', screen(['✔ Your name gra', '? Password ']), RAW),
    ]
    const [name, password] = splitFields(timeline(entries, screen(['✔ Your name gra', '✔ Password'])))
    expect(judgeField(name as Field, 80)).toEqual({ secret: false, reason: 'shown_as_typed' })
    expect(judgeField(password as Field, 80)).toEqual({ secret: true, reason: 'uncertain' })
  })

  test('nothing at a key and the whole line at a later key is lag, not a secret', () => {
    expect(
      judgeKeys(
        ['A', 'd', 'a', '\r'],
        [line('? Name '), line('? Name '), line('? Name Ad'), line('? Name Ada')],
        line('✔ Name Ada'),
      ),
    ).toEqual({ secret: false, reason: 'shown_as_typed' })
  })
})
