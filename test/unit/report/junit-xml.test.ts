import { describe, expect, test } from 'vitest'
import { junitXml } from '../../../src/report/junit-xml.js'

describe('junitXml', () => {
  test('one suite per file, counts, escapes, attachments and a failure body', () => {
    const xml = junitXml(
      [
        {
          name: 'docs/a.md',
          cases: [
            {
              name: 'Use (line 3)',
              file: 'docs/a.md',
              line: 3,
              seconds: 0.25,
              outcome: 'passed',
              message: null,
              details: null,
              attachments: [],
            },
            {
              name: 'Quote "x" <y> (line 9)',
              file: 'docs/a.md',
              line: 9,
              seconds: 1,
              outcome: 'failed',
              message: 'line 10 differs & more',
              details: '- a\n+ b\u001b[1m',
              attachments: ['rea-report/docs/a.md/x/divergence.html'],
            },
            {
              name: 'Skip (line 20)',
              file: 'docs/a.md',
              line: 20,
              seconds: 0,
              outcome: 'skipped',
              message: null,
              details: null,
              attachments: [],
            },
          ],
        },
      ],
      'rea test',
    )
    expect(xml).toContain(
      '<testsuites name="rea test" tests="3" failures="1" errors="0" skipped="1" time="1.250">',
    )
    expect(xml).toContain('name="Quote &quot;x&quot; &lt;y&gt; (line 9)"')
    expect(xml).toContain('<failure message="line 10 differs &amp; more">- a\n+ b\\x1b[1m</failure>')
    expect(xml).toContain('<system-out>[[ATTACHMENT|rea-report/docs/a.md/x/divergence.html]]</system-out>')
    expect(xml).toContain('<skipped/>')
  })
})
