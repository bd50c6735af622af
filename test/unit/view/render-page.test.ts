import { Script } from 'node:vm'
import { describe, expect, test } from 'vitest'
import { checkTrace, compareCaptures, parseTraceSpec, renderDivergencePage } from '../../../src/index.js'
import { buildPageData } from '../../../src/view/page-model.js'
import { pageScript } from '../../../src/view/page-script.js'
import { buildEvidence, withCommand } from '../../helpers/build-evidence.js'
import { headerHtml } from '../../../src/view/page-html.js'

/** The JSON the page's script reads, parsed back out of the page. */
function pageData(html: string): ReturnType<typeof buildPageData> {
  const match = /<script type="application\/json" id="rea-page-data">(.*?)<\/script>/s.exec(html)
  return JSON.parse(match![1]!) as ReturnType<typeof buildPageData>
}

describe('renderDivergencePage', () => {
  const authority = buildEvidence([{ chunk: 'hello </script><!-- world\r\n' }, { frame: 'retained' }])
  const reconstruction = buildEvidence([{ chunk: 'hello there\r\n' }, { frame: 'retained' }])

  test('embeds the data so that no text in it can end its script element', () => {
    const html = renderDivergencePage({ authority, reconstruction })
    expect(html.match(/<\/script>/g)).toHaveLength(4)
    expect(pageData(html).sides.map((side) => side.stream[0]?.[2])).toEqual([
      'hello </script><!-- world\r\n',
      'hello there\r\n',
    ])
  })

  test('compares the two sides when no comparison is given, and says so at the top', () => {
    const html = renderDivergencePage({ authority, reconstruction })
    expect(html).toContain('<span id="rea-verdict" class="badge bad">different</span>')
    expect(html).toContain('<section id="terminal-diff">')
    expect(html).toContain('-hello &lt;/script&gt;&lt;!-- world')
    expect(html).toContain(`http-equiv="Content-Security-Policy" content="default-src 'none';`)
  })

  test('shows one capture with its trace result', () => {
    const capture = buildEvidence([{ chunk: 'only\r\n' }])
    const trace = checkTrace(
      capture,
      parseTraceSpec({
        format: 'rea.process-capture.trace-spec',
        format_version: 1,
        events: [{ id: 'line', line: 'missing' }],
      }),
    )
    const html = renderDivergencePage({ reconstruction: capture, trace })
    expect(html).toContain('<section id="trace">')
    expect(pageData(html).sides.map((side) => side.label)).toEqual(['capture'])
  })

  test('explains an assertion that compared nothing, without screens or emulator', () => {
    const html = renderDivergencePage({ message: 'the authority file is missing' })
    expect(html).toContain('Why nothing was compared')
    expect(html).not.toContain('<section id="screens">')
    expect(html.length).toBeLessThan(20_000)
  })

  test('marks each checkpoint as equal or different and starts at the first divergent one', () => {
    const comparison = compareCaptures(authority, reconstruction)
    const data = buildPageData(
      [
        { label: 'authority', evidence: authority },
        { label: 'reconstruction', evidence: reconstruction },
      ],
      comparison,
    )
    expect(data.checkpoints.map((checkpoint) => checkpoint.status)).toEqual(['equal'])
    expect(data.initial_checkpoint).toBe(0)
  })
})

describe('the page script', () => {
  test('is the browser modules bundled into one valid classic script', () => {
    expect(() => new Script(pageScript())).not.toThrow()
    // Module syntax would make the browser refuse a classic script.
    expect(pageScript()).not.toMatch(/^\s*(import|export)\b/m)
    expect(pageScript()).toContain('rea-checkpoint')
    expect(pageScript()).toContain('rea-replay-load')
  })
})

test('the side table shows each command line and Evidence path by the one escaping rule', () => {
  const evidence = withCommand(buildEvidence([{ chunk: 'hi\r\n' }]), [
    '/bin/sh',
    '-c',
    'one\ntwo',
    '\u001b"q"',
  ])
  const html = headerHtml('t', 'different', null, [
    { label: 'authority', evidence, source: 'side\none.json' },
  ])
  expect(html).toContain('<td>&quot;side\\none.json&quot;</td>')
  expect(html).toContain('<code>/bin/sh -c &quot;one\\ntwo&quot; &quot;\\e\\&quot;q\\&quot;&quot;</code>')
})
