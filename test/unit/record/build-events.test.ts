import { describe, expect, test } from 'vitest'
import { normalizationRules } from '../../../src/record/avoided-spans.js'
import { buildEvents } from '../../../src/record/build-events.js'
import type { TimelineEntry } from '../../../src/record/timeline.js'
import { validateScenario } from '../../../src/scenario/validate.js'
import { keys, RAW, resize, screen, SILENT_LINE, timeline } from '../../helpers/record-timeline.js'

const rules = normalizationRules({ root: '/nowhere/x', workingDirectory: '/nowhere/x', environment: {} })

const eventsOf = (entries: TimelineEntry[]) =>
  buildEvents(timeline(entries), rules).events.map((recorded) => recorded.event)

describe('buildEvents', () => {
  test('groups keystrokes whose only output is their echo into one data event that waits for the prompt', () => {
    expect(
      eventsOf([
        keys(100, 'A', 'Name? ', ['Name? ']),
        keys(200, 'd', 'A', ['Name? A']),
        keys(300, 'a', 'd', ['Name? Ad']),
        keys(400, '\u007f', 'a', ['Name? Ada']),
        keys(500, 'a\r', '\b \b', ['Name? Ad']),
      ]),
    ).toEqual([
      {
        type: 'input',
        after: { screen: 'Name? ', quiet_ms: 100 },
        keys: ['A', 'd', 'a', 'Backspace', 'a', 'Enter'],
      },
    ])
  })

  test('starts a new event when the program drew more than the echo, waiting for what it drew', () => {
    expect(
      eventsOf([
        keys(100, 'Ada\r', 'Name? ', ['Name? ']),
        keys(900, 'y', 'Ada\r\nSure? ', ['Name? Ada', 'Sure? ']),
      ]),
    ).toEqual([
      { type: 'input', after: { screen: 'Name? ', quiet_ms: 100 }, data: 'Ada\r' },
      { type: 'input', after: { screen: 'Sure? ', quiet_ms: 100 }, data: 'y' },
    ])
  })

  test('turns a line typed without echo into a sensitive event whose data is a placeholder', () => {
    const built = buildEvents(
      timeline([
        keys(100, 'h', 'Password: ', ['Password: '], SILENT_LINE),
        keys(200, 'unter22\r', '', ['Password: '], SILENT_LINE),
      ]),
      rules,
    )
    expect(built.events).toEqual([
      {
        event: {
          type: 'input',
          after: { screen: 'Password: ', quiet_ms: 100 },
          sensitive: true,
          data: '<secret-1>\r',
        },
        secret: 'hunter22\r',
        placeholder: '<secret-1>',
        fields: [{ judgement: { secret: true, reason: 'echo_off' }, prompt: 'Password: ' }],
      },
    ])
    expect(JSON.stringify(built.events.map((recorded) => recorded.event))).not.toContain('hunter')
  })

  test('treats keys of a full-screen program (echo and line mode off) as keys, not secrets', () => {
    expect(
      eventsOf([
        keys(100, '\u001bOB', 'Pick:\r\n> Apple\r\n  Banana', ['Pick:', '> Apple', '  Banana'], RAW),
        keys(
          200,
          '\u001bOB',
          '\u001b[H\u001b[2JPick:\r\n  Apple\r\n> Banana',
          ['Pick:', '  Apple', '> Banana'],
          RAW,
        ),
      ]),
    ).toEqual([
      { type: 'input', after: { screen: '  Banana', quiet_ms: 100 }, keys: ['Down'] },
      { type: 'input', after: { screen: '> Banana', quiet_ms: 100 }, keys: ['Down'] },
    ])
  })

  test('sends the first keystrokes at launch when the program drew nothing before them', () => {
    expect(eventsOf([keys(700, 'hello\r', '', [])])).toEqual([{ type: 'input', at_ms: 0, data: 'hello\r' }])
  })

  test('adds keystrokes to the previous event when the program drew nothing between them', () => {
    expect(eventsOf([keys(100, 'a', 'Name? ', ['Name? ']), keys(150, '\u0003', '', ['Name? '])])).toEqual([
      { type: 'input', after: { screen: 'Name? ', quiet_ms: 100 }, keys: ['a', 'Ctrl+c'] },
    ])
  })

  test('times an event by the clock, with a note, only when nothing drawn could be waited for', () => {
    const built = buildEvents(
      timeline([
        keys(100, 'x\r', 'Go? ', ['Go? ']),
        keys(400, 'secret\r', 'x\r\n', ['Go? x', ''], SILENT_LINE),
      ]),
      rules,
    )
    expect(built.events[1]?.event).toMatchObject({ type: 'input', at_ms: 400, sensitive: true })
    expect(built.notes).toEqual([expect.stringContaining('events[1] is sent at at_ms 400')])
  })

  test('records a resize waiting for what was drawn, and keeps only the last of resizes with nothing drawn between', () => {
    expect(
      eventsOf([
        resize(100, 100, 'start 24x80\r\n', ['start 24x80']),
        resize(120, 110, '', ['start 24x80']),
        keys(300, 'q', 'resized 24x110\r\n', ['start 24x80', 'resized 24x110', '']),
      ]),
    ).toEqual([
      { type: 'resize', after: { screen: 'start 24x80', quiet_ms: 100 }, columns: 110, rows: 24 },
      { type: 'input', after: { screen: 'resized 24x110', quiet_ms: 100 }, data: 'q' },
    ])
  })

  test('leaves terminal replies out of what the person typed', () => {
    expect(eventsOf([keys(100, '\u001b[3;7R', 'Hi ', ['Hi ']), keys(200, 'y\r', '', ['Hi '])])).toEqual([
      { type: 'input', after: { screen: 'Hi ', quiet_ms: 100 }, data: 'y\r' },
    ])
  })

  test('writes only events the scenario validator accepts', () => {
    const events = eventsOf([
      keys(100, 'Ada\r', 'Name? ', ['Name? ']),
      keys(200, 'pw\r', 'Ada\r\nPassword: ', ['Name? Ada', 'Password: '], SILENT_LINE),
      resize(300, 100, '', ['Name? Ada', 'Password: ']),
      keys(400, '\u001b[A\u0000', 'Up? ', ['Up? ']),
    ])
    expect(() => validateScenario({ executable: 'true', events })).not.toThrow()
  })
})

describe('buildEvents on prompt libraries that redraw the line on every key', () => {
  // Inquirer's input: the whole line redrawn per key, the cursor shown after the text.
  const inquirerInput = (typed: string) =>
    screen([`? Your name ${typed}`.trimEnd()], { cursor: [0, 12 + typed.length] })
  // Inquirer's default password: the same line redrawn per key, the cursor hidden after `[input is masked]`.
  const masked = screen(['? Your name Ada', '? Password [input is masked]'], {
    cursor: [1, 28],
    visible: false,
  })

  test('makes one data event of a redrawn field and one sensitive event of a field redrawn unchanged', () => {
    const built = buildEvents(
      timeline(
        [
          keys(100, 'A', '\u001b[2K? Your name', inquirerInput(''), RAW),
          keys(200, 'd', '\u001b[2K? Your name A', inquirerInput('A'), RAW),
          keys(300, 'a', '\u001b[2K? Your name Ad', inquirerInput('Ad'), RAW),
          keys(400, '\r', '\u001b[2K? Your name Ada', inquirerInput('Ada'), RAW),
          keys(900, 's', '\r\n? Password [input is masked]', masked, RAW),
          keys(1000, '3', '\u001b[2K? Password [input is masked]', masked, RAW),
          keys(1100, 'c', '\u001b[2K? Password [input is masked]', masked, RAW),
          keys(1200, 'r\r', '\u001b[2K? Password [input is masked]', masked, RAW),
        ],
        screen(['? Your name Ada', '? Password', 'Welcome Ada'], { cursor: [3, 0] }),
        { tail: 'Welcome Ada' },
      ),
      rules,
    )
    expect(built.events.map((recorded) => recorded.event)).toEqual([
      { type: 'input', after: { screen: '? Your name', quiet_ms: 100 }, data: 'Ada\r' },
      {
        type: 'input',
        after: { screen: '? Password [input is masked]', quiet_ms: 100 },
        sensitive: true,
        data: '<secret-1>\r',
      },
    ])
    expect(built.events[1]?.secret).toBe('s3cr\r')
    expect(built.events[1]?.fields).toEqual([
      { judgement: { secret: true, reason: 'nothing_drawn' }, prompt: '? Password [input is masked]' },
    ])
  })

  test('makes one keys event of a choice made with arrow keys, waiting for the list', () => {
    const list = (selected: number) =>
      screen(
        [
          '? Choose a plan',
          ...['Free', 'Pro', 'Team'].map((name, index) => `${index === selected ? '❯' : ' '} ${name}`),
          '',
          '↑↓ navigate',
        ],
        { cursor: [5, 11], visible: false },
      )
    const events = eventsOf([
      keys(100, '\u001b[B', '? Choose a plan', list(0), RAW),
      keys(200, '\u001b[B', '\u001b[2K…', list(1), RAW),
      keys(300, '\u001b[A', '\u001b[2K…', list(2), RAW),
      keys(400, '\r', '\u001b[2K…', list(1), RAW),
    ])
    expect(events).toEqual([
      {
        type: 'input',
        after: { screen: '? Choose a plan', quiet_ms: 100 },
        keys: ['Down', 'Down', 'Up', 'Enter'],
      },
    ])
  })
})
