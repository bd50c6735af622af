/**
 * A JUnit XML document, the format CI systems read test results from (GitLab, Jenkins, Azure, CircleCI, GitHub
 * test-report actions): one `<testsuite>` per file, one `<testcase>` per test, `[[ATTACHMENT|path]]` lines in its
 * `<system-out>` for the files that show a failure (the convention Jenkins and GitLab read).
 */

export interface JUnitCase {
  readonly name: string
  /** The file the test is in, relative to the root. */
  readonly file: string
  readonly line: number
  readonly seconds: number
  readonly outcome: 'passed' | 'failed' | 'error' | 'skipped'
  /** One line for `message`; the full text goes in the element's body. */
  readonly message: string | null
  readonly details: string | null
  readonly attachments: readonly string[]
}

export interface JUnitSuite {
  readonly name: string
  readonly cases: readonly JUnitCase[]
}

export function junitXml(suites: readonly JUnitSuite[], name: string): string {
  const all = suites.flatMap((suite) => suite.cases)
  const count = (outcome: JUnitCase['outcome'], cases: readonly JUnitCase[]): number =>
    cases.filter((entry) => entry.outcome === outcome).length
  const seconds = (cases: readonly JUnitCase[]): string =>
    cases.reduce((total, entry) => total + entry.seconds, 0).toFixed(3)
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name=${attribute(name)} tests="${all.length}" failures="${count('failed', all)}" errors="${count('error', all)}" skipped="${count('skipped', all)}" time="${seconds(all)}">`,
  ]
  for (const suite of suites) {
    lines.push(
      `  <testsuite name=${attribute(suite.name)} tests="${suite.cases.length}" failures="${count('failed', suite.cases)}" errors="${count('error', suite.cases)}" skipped="${count('skipped', suite.cases)}" time="${seconds(suite.cases)}">`,
    )
    for (const entry of suite.cases) {
      lines.push(...testCase(suite.name, entry))
    }
    lines.push('  </testsuite>')
  }
  lines.push('</testsuites>')
  return `${lines.join('\n')}\n`
}

function testCase(suite: string, entry: JUnitCase): string[] {
  const open = `    <testcase classname=${attribute(suite)} name=${attribute(entry.name)} file=${attribute(entry.file)} line="${entry.line}" time="${entry.seconds.toFixed(3)}"`
  const body: string[] = []
  if (entry.outcome === 'skipped') {
    body.push('      <skipped/>')
  } else if (entry.outcome === 'failed' || entry.outcome === 'error') {
    const tag = entry.outcome === 'failed' ? 'failure' : 'error'
    body.push(
      `      <${tag} message=${attribute(entry.message ?? entry.outcome)}>${text(entry.details ?? '')}</${tag}>`,
    )
  }
  if (entry.attachments.length > 0) {
    body.push(
      `      <system-out>${text(entry.attachments.map((file) => `[[ATTACHMENT|${file}]]`).join('\n'))}</system-out>`,
    )
  }
  return body.length === 0 ? [`${open}/>`] : [`${open}>`, ...body, '    </testcase>']
}

// XML 1.0 has no way to write most C0 controls, not even as references: they are shown as `\xNN`.
// eslint-disable-next-line no-control-regex -- the characters XML cannot hold
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g

function text(value: string): string {
  return value
    .replace(NOT_XML, (character) => `\\x${(character.codePointAt(0) ?? 0).toString(16).padStart(2, '0')}`)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
}

function attribute(value: string): string {
  return `"${text(value).replaceAll('"', '&quot;').replaceAll('\n', '&#10;').replaceAll('\r', '&#13;').replaceAll('\t', '&#9;')}"`
}
