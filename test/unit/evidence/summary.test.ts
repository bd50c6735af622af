import { expect, test } from 'vitest'
import { summarizeEvidence } from '../../../src/evidence/summary.js'
import { buildEvidence, withCommand } from '../../helpers/build-evidence.js'
import { rawControlCharacters } from '../../helpers/control-characters.js'

test('the summary header shows the command line by the one escaping rule: newline, ESC and quote visible', () => {
  const evidence = withCommand(buildEvidence([{ chunk: 'hi\r\n' }]), [
    '/bin/sh',
    '-c',
    'one\ntwo',
    'a \u001b[31m"b"',
    '',
  ])
  const text = summarizeEvidence(evidence, { color: false })
  expect(text.split('\n')[0]).toBe('REA capture /bin/sh -c "one\\ntwo" "a \\e[31m\\"b\\"" ""')
  expect(rawControlCharacters(text)).toEqual([])
})
