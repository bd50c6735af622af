import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import * as z from 'zod'
import { ReaError } from '../errors.js'
import { childProcess } from '../internal/child-process.js'
import { errorMessage } from '../internal/error-message.js'

/** The output format of native/macos/process-inspect.swift (version 1); see the comment at its top. */
export const MACOS_HELPER_FORMAT_VERSION = 1
const HELPER_TIMEOUT_MS = 10_000
const COMPILE_TIMEOUT_MS = 300_000

export const macosProcessRecordSchema = z.strictObject({
  pid: z.int().min(0),
  ppid: z.int().min(0),
  pgid: z.int().min(0),
  sid: z.int().min(0),
  start_ticks: z.int(),
  comm: z.string(),
  state: z.enum(['I', 'R', 'S', 'T', 'Z', '?']),
  environ: z.enum(['carries', 'lacks', 'empty', 'unreadable']),
  environ_error: z.string().optional(),
})

export const macosSnapshotSchema = z.strictObject({
  version: z.literal(MACOS_HELPER_FORMAT_VERSION),
  boot_id: z.string(),
  now_ticks: z.int(),
  processes: z.array(macosProcessRecordSchema),
})

export const macosSingleSchema = z.strictObject({
  version: z.literal(MACOS_HELPER_FORMAT_VERSION),
  boot_id: z.string(),
  gone: z.boolean(),
  process: macosProcessRecordSchema.optional(),
})

export const macosBootSchema = z.strictObject({
  version: z.literal(MACOS_HELPER_FORMAT_VERSION),
  boot_id: z.string(),
  now_ticks: z.int(),
})

export type MacosProcessRecord = z.output<typeof macosProcessRecordSchema>
export type MacosSnapshot = z.output<typeof macosSnapshotSchema>
export type MacosSingle = z.output<typeof macosSingleSchema>

/** Parses one helper document; anything unexpected is a helper failure, never silently accepted. */
export function parseHelperOutput<T extends z.ZodType>(
  schema: T,
  text: string,
  command: string,
): z.output<T> {
  let document: unknown
  try {
    document = JSON.parse(text)
  } catch {
    throw new Error(`the macOS process helper printed something that is not JSON for "${command}"`)
  }
  const parsed = schema.safeParse(document)
  if (!parsed.success) {
    throw new Error(
      `the macOS process helper printed an unexpected document for "${command}": ${parsed.error.message}`,
    )
  }
  return parsed.data
}

/** Runs the compiled helper synchronously: inspection sits on paths (identity checks) that are synchronous. */
export type HelperRunner = (args: readonly string[]) => string

export interface MacosHelper {
  readonly run: HelperRunner
}

const SWIFT_HINT =
  'Install Apple’s Command Line Tools (`xcode-select --install`) so that `xcrun swiftc` works; REA does not install them.'

let prepared: Promise<MacosHelper> | undefined

/**
 * Compiles the helper once per process into a private temporary directory, which is removed when REA exits.
 * Capture and capability checks call this before anything starts.
 */
export function prepareMacosHelper(): Promise<MacosHelper> {
  prepared ??= compileHelper()
  prepared.catch(() => {
    // A failed compile is not cached: installing the tools and trying again must work in a long-lived process.
    prepared = undefined
  })
  return prepared
}

async function compileHelper(): Promise<MacosHelper> {
  const source = findHelperSource()
  const directory = mkdtempSync(path.join(tmpdir(), 'rea-process-inspect-'))
  process.once('exit', () => rmSync(directory, { recursive: true, force: true }))
  const binary = path.join(directory, 'process-inspect')
  try {
    await promisify(childProcess().execFile)('xcrun', ['swiftc', '-O', source, '-o', binary], {
      timeout: COMPILE_TIMEOUT_MS,
    })
  } catch (error) {
    rmSync(directory, { recursive: true, force: true })
    throw new ReaError(
      'CAPABILITY_UNAVAILABLE',
      `macOS capture needs REA's process-inspection helper, and compiling it with xcrun swiftc failed: ${firstLine(error)}`,
      { cause: error, hint: SWIFT_HINT },
    )
  }
  return {
    run: (args) =>
      childProcess().execFileSync(binary, [...args], {
        encoding: 'utf8',
        timeout: HELPER_TIMEOUT_MS,
        maxBuffer: 256 * 1024 * 1024,
      }),
  }
}

/** The Swift source ships in the package next to dist/ (and next to src/ in a checkout). */
function findHelperSource(): string {
  const here = path.dirname(fileURLToPath(import.meta.url))
  const candidates = [
    path.resolve(here, '../native/macos/process-inspect.swift'),
    path.resolve(here, '../../native/macos/process-inspect.swift'),
  ]
  const found = candidates.find((candidate) => existsSync(candidate))
  if (found === undefined) {
    throw new ReaError(
      'CAPABILITY_UNAVAILABLE',
      `REA's macOS helper source is missing; looked in ${candidates.join(', ')}.`,
      {
        hint: 'Reinstall rea-capture: the package should contain native/macos/process-inspect.swift.',
      },
    )
  }
  return found
}

function firstLine(error: unknown): string {
  const text = errorMessage(error)
  return text.split('\n')[0] ?? text
}
