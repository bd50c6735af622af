import { expect, test } from 'vitest'
import { recordingStarted, summarizeRecording } from '../../../src/record/recording-summary.js'
import { rawControlCharacters } from '../../helpers/control-characters.js'

const COMMAND = ['/opt/tool', '-c', 'one\ntwo', '/tmp/\u001b[31m"q"']

test('the line that starts a recording shows the command line by the one escaping rule', () => {
  const line = recordingStarted(COMMAND)
  expect(line).toBe(
    'rea: recording /opt/tool -c "one\\ntwo" "/tmp/\\e[31m\\"q\\""; it ends when the program exits.\n',
  )
  expect(rawControlCharacters(line)).toEqual([])
})

test('the warning about absolute paths quotes each path by the one escaping rule', () => {
  const [warning] = summarizeRecording([], [], COMMAND)
  expect(warning?.warning).toBe(true)
  expect(warning?.text).toContain('written as given ("/opt/tool", "/tmp/\\e[31m\\"q\\"")')
})
