import { describe, expect, test } from 'vitest'
import {
  STREAM_HOLD_LIMIT_CHARACTERS,
  StreamNormalizer,
  normalizeDetached,
  type NormalizedChunk,
} from '../../../src/normalize/stream-normalizer.js'
import { createStreamRuleSet } from '../../../src/normalize/stream-rule-set.js'
import type { NormalizationSettings } from '../../../src/scenario/schema.js'

const context = {
  root: '/work/clone-a',
  workingDirectory: '/work/clone-a/app',
  environment: { HOME: '/home/ada', TMPDIR: '/tmp/run-7', USER: 'ada' },
}

function rulesFor(settings: Partial<NormalizationSettings>) {
  const set = createStreamRuleSet({ patterns: [], ports: false, ...settings }, context)
  if (set === undefined) {
    throw new Error('no stream rules')
  }
  return set.rules
}

/** Feeds `pieces` as chunks and ends the stream; returns each chunk and everything released, in order. */
function run(settings: Partial<NormalizationSettings>, pieces: readonly string[]) {
  const released: string[] = []
  const normalizer = new StreamNormalizer(rulesFor(settings), (text) => released.push(text))
  const chunks: NormalizedChunk[] = []
  for (const piece of pieces) {
    const chunk: NormalizedChunk = { data: piece }
    chunks.push(chunk)
    normalizer.push(chunk, piece, piece)
  }
  normalizer.finish()
  return { chunks, released: released.join(''), normalizer }
}

const whole = (settings: Partial<NormalizationSettings>, text: string) => run(settings, [text]).released

/** A deterministic generator, so a failing split can be reproduced from its seed. */
function random(seed: number) {
  let state = seed >>> 0
  return (below: number): number => {
    state = (state * 1664525 + 1013904223) >>> 0
    return state % below
  }
}

function splitAt(text: string, next: (below: number) => number): string[] {
  const pieces: string[] = []
  let at = 0
  while (at < text.length) {
    const length = 1 + next(Math.min(40, text.length - at))
    pieces.push(text.slice(at, at + length))
    at += length
  }
  return pieces
}

const everyRule: Partial<NormalizationSettings> = {
  placeholders: ['root', 'cwd', 'home', 'tmpdir', 'user'],
  filters: ['uuids', 'timestamps', 'durations', 'hex_ids', 'temp_names'],
  redactions: [{ regex: String.raw`token=(?<redacted>\w+)`, replacement: '[TOKEN]' }],
}

const sample = [
  'RUN  v4.1.12 /work/clone-a\r\n',
  '    at Object.<anonymous> (/work/clone-a/app/index.js:3:9)\r\n',
  '    at file:///work/clone-a/app/main.mjs:1:7\r\n',
  ' \x1b[32m✓\x1b[39m test/a.test.ts \x1b[2m(1 test)\x1b[22m\x1b[32m 3\x1b[2mms\x1b[22m\x1b[39m\r\n',
  'ℹ duration_ms 110.2\r\nRan 1 test in 0.000s\r\n',
  'Date:   Fri Dec 4 17:37:58 2026 +0000\r\ncommit 1f0c2d9e8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d\r\n',
  'id 3f1e6f0c-2b8e-4d4a-9c1e-7a2b3c4d5e6f token=s3cr3t done\r\n',
  '/tmp/run-7/tmp.AbC123xyZ0 created by ada in /home/ada/.cache\r\n',
  'Start at 17:37:58\r\n{"cwd":"\\/work\\/clone-a\\/app"}\r\nName? ',
].join('')

describe('StreamNormalizer', () => {
  // Many random cuts: seconds on a loaded CI host (a bound for a stalled test, not a speed claim).
  test(
    'gives the same comparison text however the stream is cut (random splits of paths, times, ids, redactions)',
    { timeout: 60_000 },
    () => {
      const expected = whole(everyRule, sample)
      expect(expected).not.toContain('/work/clone-a')
      for (let seed = 1; seed <= 300; seed++) {
        const pieces = splitAt(sample, random(seed))
        const { chunks, released } = run(everyRule, pieces)
        expect(released, `seed ${seed}`).toBe(expected)
        expect(chunks.map((chunk) => chunk.data).join(''), `seed ${seed}`).toBe(expected)
        chunks.forEach((chunk, index) => expect(chunk.raw_data ?? chunk.data).toBe(pieces[index]))
      }
    },
  )

  test('replaces the capture root, the working directory, home, temp dir and user in every spelling', () => {
    expect(whole(everyRule, sample).split('\r\n')).toEqual([
      'RUN  v4.1.12 [ROOT]',
      '    at Object.<anonymous> ([CWD]/index.js:3:9)',
      '    at file://[CWD]/main.mjs:1:7',
      ' \x1b[32m✓\x1b[39m test/a.test.ts \x1b[2m(1 test)\x1b[22m\x1b[32m [DURATION]\x1b[2m\x1b[22m\x1b[39m',
      'ℹ duration_ms [DURATION]',
      'Ran 1 test in [DURATION]',
      'Date:   [TIMESTAMP]',
      'commit [HEX_ID]',
      'id [UUID] token=[TOKEN] done',
      '[TMPDIR]/[TEMP_NAME] created by [USER] in [HOME]/.cache',
      'Start at [TIMESTAMP]',
      '{"cwd":"[CWD]"}',
      'Name? ',
    ])
  })

  test('places a replacement that crosses chunks in the chunk where it starts; the others keep what follows', () => {
    const { chunks } = run({ placeholders: ['root'] }, ['see /wo', 'rk/clo', 'ne-a/x\n'])
    expect(chunks.map((chunk) => chunk.data)).toEqual(['see [ROOT]', '', '/x\n'])
    expect(chunks.map((chunk) => chunk.raw_data)).toEqual(['see /wo', 'rk/clo', 'ne-a/x\n'])
  })

  test('holds back only what a rule could still match, and releases the rest at once', () => {
    const released: string[] = []
    const normalizer = new StreamNormalizer(rulesFor({ placeholders: ['root'] }), (text) =>
      released.push(text),
    )
    normalizer.push({ data: '' }, 'Name? ', 'Name? ')
    expect(released).toEqual(['Name? '])
    normalizer.push({ data: '' }, 'at /work/cl', 'at /work/cl')
    expect(released.join('')).toBe('Name? at ')
    expect(normalizer.heldCharacters).toBe('/work/cl'.length)
  })
})

describe('placeholders', () => {
  test.each([
    ['a path inside a longer name', '/work/clone-ab/x', '/work/clone-ab/x'],
    ['a path after a longer path', '/mnt/work/clone-a/x', '/mnt/work/clone-a/x'],
    ['a glob', '!**/work/clone-a', '!**/work/clone-a'],
    ['a trailing separator', '/work/clone-a/', '[ROOT]/'],
    ['the end of a sentence', 'in /work/clone-a.', 'in [ROOT].'],
    ['a file extension', '/work/clone-a.tar', '/work/clone-a.tar'],
    ['after a colour sequence', '\x1b[1m/work/clone-a\x1b[0m', '\x1b[1m[ROOT]\x1b[0m'],
    ['quoted', '"/work/clone-a"', '"[ROOT]"'],
  ])('%s: %j becomes %j', (_, input, output) => {
    expect(whole({ placeholders: ['root'] }, input)).toBe(output)
  })

  test('the longest value wins: a working directory inside the root, a root inside home', () => {
    const text = '/work/clone-a/app/x /work/clone-a/y'
    expect(whole({ placeholders: ['root', 'cwd'] }, text)).toBe('[CWD]/x [ROOT]/y')
  })

  test('percent-encodes a file URL and matches JSON escapes', () => {
    const spaced = { ...context, root: '/work/my clone' }
    const set = createStreamRuleSet({ patterns: [], ports: false, placeholders: ['root'] }, spaced)
    const text = 'file:///work/my%20clone/a.mjs "/work/my clone" "\\/work\\/my clone"'
    expect(normalizeDetached(set?.rules ?? [], text)).toBe('file://[ROOT]/a.mjs "[ROOT]" "[ROOT]"')
  })

  test('replaces user names only as whole words, and skips values too short to mean anything', () => {
    expect(whole({ placeholders: ['user'] }, 'ada adam ada-x ada.')).toBe('[USER] adam ada-x [USER].')
    const set = createStreamRuleSet(
      { patterns: [], ports: false, placeholders: ['user', 'home'] },
      { ...context, environment: { USER: 'ci', HOME: '/' } },
    )
    expect(
      set?.report(() => 0, { held_max_characters: 0, early_releases: 0, limit_releases: 0 }).placeholders,
    ).toEqual([
      { name: 'home', token: '[HOME]', status: 'skipped', reason: 'too_short', replaced: 0 },
      { name: 'user', token: '[USER]', status: 'skipped', reason: 'too_short', replaced: 0 },
    ])
  })

  test('writes [ROOT] when the working directory is the root, and says so', () => {
    const same = { ...context, workingDirectory: context.root }
    const set = createStreamRuleSet({ patterns: [], ports: false, placeholders: ['cwd', 'root'] }, same)
    expect(normalizeDetached(set?.rules ?? [], '/work/clone-a/x')).toBe('[ROOT]/x')
    expect(
      set?.report(() => 0, { held_max_characters: 0, early_releases: 0, limit_releases: 0 }).placeholders[1],
    ).toMatchObject({
      name: 'cwd',
      status: 'skipped',
      reason: 'same_value',
      same_as: 'root',
    })
  })
})

describe('redactions', () => {
  test('replace only the redacted group, line by line, and ignore empty matches', () => {
    const rules = {
      redactions: [
        { regex: String.raw`^(?<redacted>\s*\d+) `, replacement: '[PID]' },
        { regex: 'x*', replacement: '!' },
      ],
    }
    expect(whole(rules, '  412 node\n17 sh\nplain\n')).toBe('[PID] node\n[PID] sh\nplain\n')
  })

  test('hold an unfinished line until it ends, and give up at the hold limit', () => {
    const { normalizer, released } = run({ redactions: [{ regex: 'a', replacement: 'b' }] }, [
      'a'.repeat(STREAM_HOLD_LIMIT_CHARACTERS + 1),
    ])
    expect(released).toBe('b'.repeat(STREAM_HOLD_LIMIT_CHARACTERS + 1))
    expect(normalizer.accounting.limit_releases).toBe(1)
  })

  describe('read the text after the placeholders (regex-redactions-v2)', () => {
    const withRoot = (regex: string, replacement = '[N]'): Partial<NormalizationSettings> => ({
      placeholders: ['root', 'cwd', 'home', 'user'],
      redactions: [{ regex, replacement }],
    })

    test.for([
      // The docs' example: a redaction written against the token, as a failure message shows the output.
      [
        'a path under the root',
        String.raw`\[ROOT\]/out-(?<redacted>\d+)`,
        'wrote /work/clone-a/out-4127\n',
        'wrote [ROOT]/out-[N]\n',
      ],
      [
        'the whole token replaced',
        String.raw`\[ROOT\]/out-\d+`,
        'wrote /work/clone-a/out-4127 ok\n',
        'wrote [N] ok\n',
      ],
      [
        'a token after the match',
        String.raw`job (?<redacted>\d+) of \[USER\]`,
        'job 17 of ada\n',
        'job [N] of [USER]\n',
      ],
      // The docs' other example (docs/normalization.md#redactions): the spaces before the group stay.
      ['no token involved, as in v1', String.raw`^\s*(?<redacted>\d+) `, '  4127 node\n', '  [N] node\n'],
      [
        'a match after a token',
        String.raw`out-(?<redacted>\d+)`,
        '/work/clone-a/out-4127\n',
        '[ROOT]/out-[N]\n',
      ],
      [
        'the value itself, which the expression no longer sees',
        String.raw`/work/clone-a`,
        'at /work/clone-a/x\n',
        'at [ROOT]/x\n',
      ],
    ] as const)('%s', ([, regex, text, expected]) => {
      expect(whole(withRoot(regex), text)).toBe(expected)
    })

    test('give the same text however the stream is cut', () => {
      const settings = withRoot(String.raw`\[ROOT\]/out-(?<redacted>\d+)`)
      const text = 'a /work/clone-a/out-4127 b /work/clone-a/out-9 c /home/ada/out-3\r\n'.repeat(5)
      const expected = whole(settings, text)
      expect(expected).toContain('[ROOT]/out-[N] b')
      for (let seed = 1; seed <= 30; seed++) {
        expect(run(settings, splitAt(text, random(seed))).released).toBe(expected)
      }
    })

    test('count a redaction that takes a token as the redaction’s replacement', () => {
      const set = createStreamRuleSet(
        { patterns: [], ports: false, ...withRoot(String.raw`\[ROOT\]/out-(?<redacted>\d+)`) },
        context,
      )!
      const normalizer = new StreamNormalizer(set.rules, () => undefined)
      normalizer.push({ data: '' }, '', '/work/clone-a/out-1 /work/clone-a/x\n')
      normalizer.finish()
      expect(normalizer.replacements('redactions[0]')).toBe(1)
      expect(normalizer.replacements('root')).toBe(1)
    })
  })
})
