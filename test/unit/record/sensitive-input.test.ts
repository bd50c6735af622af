import { describe, expect, test } from 'vitest'
import { atSecretPrompt, sensitiveKeystrokes } from '../../../src/record/sensitive-input.js'
import type { KeystrokeEntry, RecordedTimeline } from '../../../src/record/timeline.js'

const ECHO = { echo: true, canonical: true }
const SILENT_LINE = { echo: false, canonical: true }
const RAW = { echo: false, canonical: false }

function keys(
  input: string,
  output: string,
  beforeCursor: string,
  modes: KeystrokeEntry['modes'],
): KeystrokeEntry {
  const screen = { rows: [beforeCursor], cursorRow: 0, beforeCursor }
  return { kind: 'keystrokes', at_ms: 100, input, output, screen, quiet_ms: 500, modes }
}

/** Which entries (by index) the rule calls secret. */
function secretIndexes(entries: KeystrokeEntry[]): number[] {
  const timeline: RecordedTimeline = {
    columns: 80,
    rows: 24,
    entries,
    output: entries.map((entry) => entry.output).join(''),
    finalScreen: { rows: [], cursorRow: 0, beforeCursor: '' },
    duration_ms: 1000,
  }
  const sensitive = sensitiveKeystrokes(timeline)
  return entries.flatMap((entry, index) => (sensitive.has(entry) ? [index] : []))
}

describe('sensitiveKeystrokes', () => {
  test('calls a line read without echo secret, whatever the prompt says', () => {
    expect(secretIndexes([keys('abc\r', 'Code: ', 'Code: ', SILENT_LINE)])).toEqual([0])
    expect(secretIndexes([keys('abc\r', 'Name? ', 'Name? ', ECHO)])).toEqual([])
    expect(secretIndexes([keys('abc\r', 'Password: ', 'Password: ', undefined)])).toEqual([])
  })

  test('calls raw-mode keys secret after a password prompt that draws a mask or nothing for them', () => {
    expect(
      secretIndexes([
        keys('h', '? Password: ', '? Password: ', RAW),
        keys('u', '*', '? Password: *', RAW),
        keys('n', '*', '? Password: **', RAW),
        keys('\r', '*', '? Password: ***', RAW),
        keys('y', '\r\nWelcome. Continue? ', 'Welcome. Continue? ', RAW),
      ]),
    ).toEqual([0, 1, 2, 3])
    expect(
      secretIndexes([keys('pw', 'Enter passphrase: ', 'Enter passphrase: ', RAW), keys('\r', '', '', RAW)]),
    ).toEqual([0])
  })

  test('keeps raw-mode keys whose characters the program draws back, and keys away from a secret prompt', () => {
    // A prompt library echoing the key itself: not a secret field.
    expect(
      secretIndexes([keys('h', 'Password: ', 'Password: ', RAW), keys('i', 'h', 'Password: h', RAW)]),
    ).toEqual([])
    // A menu and an editor: keys are commands.
    expect(
      secretIndexes([keys('\u001bOB', 'Pick:\r\n> Apple', '> Apple', RAW), keys('j', '', '> Apple', RAW)]),
    ).toEqual([])
  })
})

describe('atSecretPrompt', () => {
  test.for([
    'Password: ',
    '[sudo] password for ada: ',
    "Enter passphrase for key '/home/ada/.ssh/id_ed25519': ",
    '? Password [input is masked]',
    'PIN: ****',
    'API key> ',
    'Passwort: ',
    'Token: •••',
  ])('reads %j as a secret prompt', (text) => {
    expect(atSecretPrompt(text)).toBe(true)
  })

  test.for([
    'Name? ',
    'password = hunter2',
    'The password is stored in the keychain.',
    'Spinning: ',
    'Secrets? ',
    'tokens: ',
    '',
  ])('does not read %j as a secret prompt', (text) => {
    expect(atSecretPrompt(text)).toBe(false)
  })
})
