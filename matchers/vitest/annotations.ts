import { createHash } from 'node:crypto'
import { mkdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  type AssertionCaptures,
  type AssertionRecord,
  errorMessage,
  failureHeadline,
  renderAssertionFinalScreens,
  renderAssertionImage,
  renderAssertionPage,
  type RunnerMatcherState,
  writeFileAtomicSync,
} from '../../src/front-end.js'
import { awaitBeforeFileEnds } from './artifacts.js'

/** The annotation a failing capture assertion adds to its test, shown by `vitest --ui` and the HTML reporter. */
export const DIVERGENCE_ANNOTATION_TYPE = 'rea:divergence'
/** The second annotation: both screens at the first divergent checkpoint, as an SVG image. */
export const SCREENS_ANNOTATION_TYPE = 'rea:screens'
const SCREENS_ANNOTATION_MESSAGE = 'both screens at the first checkpoint where they differ'
/** The third: both sides' final screens, on every failure that has a capture to draw. */
export const FINAL_SCREENS_ANNOTATION_TYPE = 'rea:final-screens'
const FINAL_SCREENS_ANNOTATION_MESSAGE = 'the final screens of the authority and the capture'
/** `0` turns the annotations off (each one renders and writes a page). */
export const ANNOTATE_ENV = 'REA_VITEST_ANNOTATE'
/** Vitest names its copy of an attachment after the message: keep that file name within 255 bytes. */
const ANNOTATION_MESSAGE_CHARACTERS = 160
/** Pages wait here until Vitest has copied them into its attachmentsDir. */
const PAGE_DIRECTORY = path.join(tmpdir(), `rea-vitest-pages-${process.pid}`)

interface AnnotatingContext {
  annotate(
    message: string,
    type: string,
    attachment: { readonly path: string; readonly contentType: string },
  ): Promise<unknown>
}

/**
 * Annotates the failing assertion's test with its first divergence and attaches the divergence page, then, when
 * two screens differ, a second annotation with their picture (an inline image in the UI). The calls must happen
 * while the test still runs (Vitest refuses annotations after), so the files are written here, synchronously;
 * Vitest copies them into its attachmentsDir, after which the temporary files are removed.
 */
export function annotateFailure(
  state: RunnerMatcherState,
  record: AssertionRecord,
  captures: AssertionCaptures,
): void {
  const task = state.task as { context?: Partial<AnnotatingContext>; result?: { state?: string } } | undefined
  const context = task?.context
  if (process.env[ANNOTATE_ENV] === '0' || typeof context?.annotate !== 'function') {
    return
  }
  // An assertion that runs after its test has ended (the test timed out, its code went on) can no longer
  // annotate it: Vitest would refuse, and the warning would only add noise under the test's own failure.
  if (task?.result?.state !== undefined && task.result.state !== 'run') {
    return
  }
  const annotate = context.annotate.bind(context)
  const name = createHash('sha256')
    .update(
      `${record.test_file}\0${record.test_name}\0${record.entry}\0${record.attempt.retry}\0${record.attempt.repeat}`,
    )
    .digest('hex')
    .slice(0, 16)
  const headline = failureHeadline(record)
  const message =
    headline.length > ANNOTATION_MESSAGE_CHARACTERS
      ? `${headline.slice(0, ANNOTATION_MESSAGE_CHARACTERS - 1)}…`
      : headline
  attach(
    annotate,
    message,
    DIVERGENCE_ANNOTATION_TYPE,
    `${name}.html`,
    'text/html',
    renderAssertionPage(record, captures),
  )
  const image = renderAssertionImage(record, captures)
  if (image !== null) {
    attach(
      annotate,
      SCREENS_ANNOTATION_MESSAGE,
      SCREENS_ANNOTATION_TYPE,
      `${name}.svg`,
      'image/svg+xml',
      image,
    )
  }
  if (record.reconstruction !== null) {
    attach(
      annotate,
      FINAL_SCREENS_ANNOTATION_MESSAGE,
      FINAL_SCREENS_ANNOTATION_TYPE,
      `${name}-final.svg`,
      'image/svg+xml',
      renderAssertionFinalScreens(record, captures),
    )
  }
}

function attach(
  annotate: AnnotatingContext['annotate'],
  message: string,
  type: string,
  fileName: string,
  contentType: string,
  content: string,
): void {
  mkdirSync(PAGE_DIRECTORY, { recursive: true })
  const file = path.join(PAGE_DIRECTORY, fileName)
  writeFileAtomicSync(file, content)
  const sent = annotate(message, type, { path: file, contentType })
    .then(
      () => undefined,
      (error: unknown) => {
        process.stderr.write(`rea: could not annotate the test (${type}): ${errorMessage(error)}\n`)
      },
    )
    .finally(() => rmSync(file, { force: true }))
  awaitBeforeFileEnds(sent)
}
