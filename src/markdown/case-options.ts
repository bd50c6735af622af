import {
  FILTER_NAMES,
  MAX_TERMINAL_DIMENSION,
  MIN_TERMINAL_COLUMNS,
  PLACEHOLDER_NAMES,
} from '../scenario/schema.js'
import type { FilterName } from '../normalize/filters.js'
import type { PlaceholderName } from '../normalize/placeholders.js'
import { compileRedaction } from '../normalize/redactions.js'
import { nearestName } from './markdown-issue.js'
import type { OptionWord } from './info-string.js'

/**
 * The options of a console block, written in its info string or, for every block of a file, in the front
 * matter's `rea:` value (docs/markdown-cases.md#options). The block's own options win, name by name.
 */
export interface CaseOptions {
  readonly ignore?: true
  readonly columns?: number
  readonly rows?: number
  readonly scrollback?: number
  /** `env.NAME=VALUE` sets, `unset=NAME` removes (`null`). */
  readonly environment?: Readonly<Record<string, string | null>>
  readonly timeoutMs?: number
  /** Relative to the Markdown file's folder: run there instead of in the file's temporary folder. */
  readonly cwd?: string
  readonly terminal?: 'transcript' | 'screens'
  readonly wait?: 'prompt' | 'text'
  readonly quietMs?: number
  readonly placeholders?: readonly PlaceholderName[]
  readonly filters?: readonly FilterName[]
  /** `redact.NAME=REGEX`: the match (or its `redacted` group) becomes `[NAME]`. */
  readonly redactions?: Readonly<Record<string, string>>
  readonly ports?: boolean
  readonly color?: true
  /** Front matter only: files and folders copied into the temporary folder, relative to the Markdown file. */
  readonly files?: readonly string[]
}

/** How long a command may run when no `timeout=` says otherwise: a documentation example that hangs fails fast. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 10_000

type Mutable<T> = { -readonly [K in keyof T]: T[K] }
type Parsed = Mutable<CaseOptions>

interface OptionSpec {
  /** As written in messages and suggestions; `env.NAME` stands for every `env.` key. */
  readonly name: string
  readonly frontMatterOnly?: true
  readonly flag?: true
  readonly apply: (options: Parsed, value: string, key: string) => string | null
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

const OPTIONS: readonly OptionSpec[] = [
  { name: 'ignore', flag: true, apply: (o) => ((o.ignore = true), null) },
  { name: 'color', flag: true, apply: (o) => ((o.color = true), null) },
  { name: 'cols', apply: (o, v) => size(v, MIN_TERMINAL_COLUMNS, (n) => (o.columns = n)) },
  { name: 'rows', apply: (o, v) => size(v, 1, (n) => (o.rows = n)) },
  { name: 'scrollback', apply: (o, v) => size(v, 0, (n) => (o.scrollback = n)) },
  { name: 'timeout', apply: (o, v) => duration(v, (n) => (o.timeoutMs = n), 1) },
  { name: 'quiet', apply: (o, v) => duration(v, (n) => (o.quietMs = n), 0) },
  {
    name: 'cwd',
    apply: (o, v) => (v === '' ? 'give a folder, relative to the Markdown file' : ((o.cwd = v), null)),
  },
  {
    name: 'terminal',
    apply: (o, v) => choice(v, ['transcript', 'screens'] as const, (c) => (o.terminal = c)),
  },
  { name: 'wait', apply: (o, v) => choice(v, ['prompt', 'text'] as const, (c) => (o.wait = c)) },
  { name: 'ports', apply: (o, v) => choice(v, ['true', 'false'] as const, (c) => (o.ports = c === 'true')) },
  { name: 'placeholders', apply: (o, v) => names(v, PLACEHOLDER_NAMES, (n) => (o.placeholders = n)) },
  { name: 'filters', apply: (o, v) => names(v, FILTER_NAMES, (n) => (o.filters = n)) },
  {
    name: 'unset',
    apply: (o, v) => {
      const variables = v.split(',')
      const bad = variables.find((variable) => !/^[A-Za-z_][A-Za-z0-9_]*\*?$/.test(variable))
      if (bad !== undefined) {
        return `"${bad}" is not a variable name (letters, digits and _, optionally ending in * for a prefix)`
      }
      o.environment = { ...o.environment, ...Object.fromEntries(variables.map((name) => [name, null])) }
      return null
    },
  },
  {
    name: 'env.NAME',
    apply: (o, v, key) => {
      const variable = key.slice('env.'.length)
      if (!NAME.test(variable)) {
        return `"${variable}" is not a variable name (letters, digits and _)`
      }
      o.environment = { ...o.environment, [variable]: v }
      return null
    },
  },
  {
    name: 'redact.NAME',
    apply: (o, v, key) => {
      const token = key.slice('redact.'.length)
      if (!/^[A-Z][A-Z0-9_]*$/.test(token)) {
        return `the name after redact. becomes the token [${token}]: write it in capitals (A–Z, digits, _), e.g. redact.PID`
      }
      const compiled = compileRedaction(v)
      if ('error' in compiled) {
        return `the expression does not compile: ${compiled.error}`
      }
      o.redactions = { ...o.redactions, [token]: v }
      return null
    },
  },
  {
    name: 'files',
    frontMatterOnly: true,
    apply: (o, v) => {
      const files = v.split(',').filter((file) => file !== '')
      if (files.length === 0) {
        return 'name at least one file or folder, relative to the Markdown file'
      }
      o.files = files
      return null
    },
  },
]

export const OPTION_NAMES = OPTIONS.map((option) => option.name)

function specFor(key: string): OptionSpec | undefined {
  const prefix = /^(env|redact)\./.exec(key)?.[1]
  return OPTIONS.find((option) => option.name === (prefix === undefined ? key : `${prefix}.NAME`))
}

/** Reads option words; problems are sentences naming the option, for the caller to place at a line. */
export function parseCaseOptions(
  words: readonly OptionWord[],
  place: 'block' | 'front matter',
): { readonly options: CaseOptions; readonly problems: readonly string[] } {
  const options: Parsed = {}
  const problems: string[] = []
  const seen = new Set<string>()
  for (const word of words) {
    const spec = specFor(word.key)
    if (spec === undefined) {
      const near = nearestName(word.key, OPTION_NAMES)
      problems.push(
        `unknown option \`${word.key}\`${near === null ? '' : `; did you mean \`${near}\`?`} Options: ${OPTION_NAMES.join(', ')}`,
      )
      continue
    }
    if (seen.has(word.key)) {
      problems.push(`option \`${word.key}\` is given twice`)
      continue
    }
    seen.add(word.key)
    if (spec.frontMatterOnly === true && place === 'block') {
      problems.push(
        `option \`${word.key}\` belongs in the front matter (\`rea: ${word.key}=…\`), for the whole file`,
      )
      continue
    }
    if ((spec.flag === true) !== (word.value === null)) {
      problems.push(
        spec.flag === true
          ? `option \`${word.key}\` takes no value: write \`${word.key}\` alone`
          : `option \`${word.key}\` needs a value: \`${word.key}=…\``,
      )
      continue
    }
    const problem = spec.apply(options, word.value ?? '', word.key)
    if (problem !== null) {
      problems.push(`option \`${word.key}\`: ${problem}`)
    }
  }
  return { options, problems }
}

/** A block's options over its file's: each option as the block gives it, variables and redactions name by name. */
export function mergeCaseOptions(file: CaseOptions, block: CaseOptions): CaseOptions {
  return {
    ...file,
    ...block,
    environment: { ...file.environment, ...block.environment },
    redactions: { ...file.redactions, ...block.redactions },
  }
}

function size(value: string, min: number, set: (n: number) => void): string | null {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > MAX_TERMINAL_DIMENSION) {
    return `give a whole number from ${min} to ${MAX_TERMINAL_DIMENSION}: got "${value}"`
  }
  set(Number(value))
  return null
}

/** Milliseconds as a number (`5000`) or with a unit (`500ms`, `5s`). */
function duration(value: string, set: (ms: number) => void, min: number): string | null {
  const match = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(value)
  const ms = match === null ? NaN : Math.round(Number(match[1]) * (match[2] === 's' ? 1000 : 1))
  if (!Number.isSafeInteger(ms) || ms < min) {
    return `give milliseconds (5000) or a duration with its unit (500ms, 5s)${min > 0 ? ', more than 0' : ''}: got "${value}"`
  }
  set(ms)
  return null
}

function choice<T extends string>(
  value: string,
  choices: readonly T[],
  set: (choice: T) => void,
): string | null {
  if (!(choices as readonly string[]).includes(value)) {
    return `choose ${choices.join(' or ')}: got "${value}"`
  }
  set(value as T)
  return null
}

function names<T extends string>(
  value: string,
  known: readonly T[],
  set: (names: T[]) => void,
): string | null {
  const given = value === '' ? [] : value.split(',')
  const unknown = given.filter((name) => !(known as readonly string[]).includes(name))
  if (unknown.length > 0) {
    return `unknown name${unknown.length === 1 ? '' : 's'} ${unknown.map((name) => `"${name}"`).join(', ')}; choose from ${known.join(', ')} (comma-separated; empty for none)`
  }
  if (new Set(given).size !== given.length) {
    return 'each name once'
  }
  set(given as T[])
  return null
}
