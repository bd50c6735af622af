import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { fixtureProjects } from '../helpers/fixture-project.js'
import { runRunnerCli } from '../helpers/run-runner-cli.js'
import { VITEST_CLI, VITEST_DEFAULT_FOLDERS } from '../helpers/vitest-under-test.js'

const projectCopy = fixtureProjects('vitest-report')

interface Annotation {
  readonly type: string
  readonly message: string
  readonly location?: { readonly file: string; readonly line: number; readonly column: number }
  readonly attachment?: { readonly path?: string; readonly contentType?: string }
}

function annotations(project: string): Record<string, Annotation[]> {
  return JSON.parse(readFileSync(path.join(project, 'annotations.json'), 'utf8')) as Record<
    string,
    Annotation[]
  >
}

const FAILING = 'greets the same way twice'

describe('rea-capture/vitest annotations with the real Vitest CLI', () => {
  test('a failing capture annotates its test with the first divergence, the divergence page and a picture of both screens', async () => {
    const project = projectCopy()
    const reporters = [
      'default',
      'rea-capture/reporter',
      'github-actions',
      'junit',
      './record-annotations.mjs',
    ]
    const result = await runRunnerCli(
      VITEST_CLI,
      [
        'run',
        '--update',
        ...reporters.map((reporter) => `--reporter=${reporter}`),
        '--outputFile.junit=junit.xml',
      ],
      project,
      { FIXTURE_FAIL: '1', GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: project },
    )
    expect(result.code, result.stderr).toBe(1)

    const byTest = annotations(project)
    expect(byTest['greets Ada']).toEqual([])
    // The two annotations travel separately, so they may arrive in either order.
    const recorded = byTest[FAILING] ?? []
    expect(recorded.map((each) => each.type).sort()).toEqual([
      'rea:divergence',
      'rea:final-screens',
      'rea:screens',
    ])
    const annotation = recorded.find((each) => each.type === 'rea:divergence')
    const image = recorded.find((each) => each.type === 'rea:screens')
    const line =
      readFileSync(path.join(project, 'differs.test.mjs'), 'utf8')
        .split('\n')
        .findIndex((text) => text.includes('.toMatchCapture(')) + 1
    expect(annotation).toMatchObject({
      type: 'rea:divergence',
      message: expect.stringMatching(
        /^screen checkpoint \d+ \([a-z ]+\), row 2: "Hello, Ada!" → "Good day, Ada!"/,
      ),
      location: { file: path.join(project, 'differs.test.mjs'), line },
      attachment: { contentType: 'text/html' },
    })
    // Vitest copied the page into its attachments folder, where the UI and the HTML reporter serve it from: by
    // default `.vitest-attachments` under Vitest 4, `.vitest/attachments` under Vitest 5.
    const attachment = annotation!.attachment!.path!
    expect(path.dirname(attachment)).toBe(path.join(project, VITEST_DEFAULT_FOLDERS.attachments))
    const page = readFileSync(attachment, 'utf8')
    expect(page).toContain('<span id="rea-verdict" class="badge bad">different</span>')
    expect(page).toContain('Good day, Ada!')
    expect(page).toContain('Hello, Ada!')

    // The second annotation is a picture of both screens where they differ, which the UI shows inline.
    expect(image).toMatchObject({
      type: 'rea:screens',
      location: { file: path.join(project, 'differs.test.mjs'), line },
      attachment: { contentType: 'image/svg+xml' },
    })
    const svg = readFileSync(image!.attachment!.path!, 'utf8')
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/)
    expect(svg).toContain('>Hello, Ada!</tspan></text>')
    expect(svg).toContain('>Good day, Ada!</tspan></text>')
    expect(svg.match(/class="rea-diff-cell"/g)).toHaveLength(2)

    // The third is both sides' final screens, on every failure.
    const finals = recorded.find((each) => each.type === 'rea:final-screens')
    expect(finals).toMatchObject({ attachment: { contentType: 'image/svg+xml' } })
    const finalSvg = readFileSync(finals!.attachment!.path!, 'utf8')
    expect(finalSvg).toContain('Hello, Ada!')
    expect(finalSvg).toContain('Good day, Ada!')

    // JUnit keeps annotations as properties of the test case.
    const junit = readFileSync(path.join(project, 'junit.xml'), 'utf8')
    expect(junit).toMatch(
      /<property name="rea:divergence" value="screen checkpoint \d+ \([a-z ]+\), row 2: &quot;Hello, Ada!&quot; → &quot;Good day, Ada!&quot;/,
    )

    // GitHub Actions: Vitest turns the annotation into a notice, never an error or a warning, so it does not use
    // the error budget REA's own ::error annotations need; both point at the assertion's line.
    const commands = result.stdout.split('\n').filter((text) => text.startsWith('::'))
    const fromAnnotation = commands.filter((text) => text.includes('title=rea%3A'))
    expect(fromAnnotation).toHaveLength(3)
    expect(
      fromAnnotation.filter((text) => /^::notice file=.*,title=rea%3Ascreens::both screens/.test(text)),
    ).toHaveLength(1)
    expect(fromAnnotation.find((text) => text.includes('title=rea%3Adivergence'))).toMatch(
      new RegExp(
        `^::notice file=${path.join(project, 'differs.test.mjs').replaceAll('/', '\\/')},line=${line},column=\\d+,title=rea%3Adivergence::screen checkpoint \\d+ \\([a-z ]+\\), row 2: "Hello, Ada!" → "Good day, Ada!"`,
      ),
    )
    const errors = commands.filter((text) => text.startsWith('::error'))
    expect(
      errors.filter((text) => text.includes('title=REA capture different%3A greets the same way twice')),
    ).toHaveLength(1)
    // Vitest's own error for the failed test, and REA's: nothing else competes for the error budget.
    expect(errors).toHaveLength(2)
    expect(commands.filter((text) => text.startsWith('::warning'))).toEqual([])
  })

  test('REA_VITEST_ANNOTATE=0 leaves tests without annotations', async () => {
    const project = projectCopy()
    const result = await runRunnerCli(
      VITEST_CLI,
      ['run', '--reporter=default', '--reporter=./record-annotations.mjs'],
      project,
      {
        FIXTURE_FAIL: '1',
        REA_VITEST_ANNOTATE: '0',
      },
    )
    expect(result.code, result.stderr).toBe(1)
    expect(annotations(project)[FAILING]).toEqual([])
    expect(existsSync(path.join(project, VITEST_DEFAULT_FOLDERS.attachments))).toBe(false)
  })
})
