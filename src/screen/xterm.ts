import { createRequire } from 'node:module'
import type * as SerializeModule from '@xterm/addon-serialize'
import type * as GraphemesModule from '@xterm/addon-unicode-graphemes'
import type * as XtermModule from '@xterm/headless'

export type XtermTerminal = InstanceType<typeof XtermModule.Terminal>
export type XtermSerializer = InstanceType<typeof SerializeModule.SerializeAddon>
export type GraphemesAddon = typeof GraphemesModule.UnicodeGraphemesAddon

export interface XtermClasses {
  readonly Terminal: typeof XtermModule.Terminal
  readonly SerializeAddon: typeof SerializeModule.SerializeAddon
}

let terminalClass: XtermClasses['Terminal'] | undefined
let serializeAddonClass: XtermClasses['SerializeAddon'] | undefined

/**
 * Loads @xterm/headless and its serialize addon on first need: a process that only compares Evidence at the
 * stream level never pays for them. Both packages are CommonJS and are loaded with require: an ESM import of
 * them first runs Node's CommonJS export scanner over the whole bundle, which made loading it markedly slower.
 * Throws when they cannot be loaded; a failure is not kept, so a later terminal tries again.
 */
export function loadXterm(): XtermClasses {
  return { Terminal: loadTerminalClass(), SerializeAddon: loadSerializeAddon() }
}

/** @xterm/headless alone: the live terminal answers and shows screens without serializing them. */
export function loadTerminalClass(): XtermClasses['Terminal'] {
  terminalClass ??= fromNamespace(
    createRequire(import.meta.url)('@xterm/headless') as typeof XtermModule,
    'Terminal',
  )
  return terminalClass
}

function loadSerializeAddon(): XtermClasses['SerializeAddon'] {
  serializeAddonClass ??= fromNamespace(
    createRequire(import.meta.url)('@xterm/addon-serialize') as typeof SerializeModule,
    'SerializeAddon',
  )
  return serializeAddonClass
}

const GRAPHEMES_PACKAGE = '@xterm/addon-unicode-graphemes'

/**
 * Evaluates the grapheme addon's module afresh (a copy already in the module cache is dropped first when
 * `fresh`), with Node's Buffer pool off while it runs. Its Unicode data is decoded from base64 into a Buffer at
 * evaluation and read through `new DataView(data.buffer)`, which ignores the byte offset: a pooled Buffer (the
 * default for anything under 4 KiB) makes every code point above U+FFFF one cell wide with no grapheme
 * properties (xterm.js issue #6079, fixed upstream in PR #6080). An unpooled Buffer starts at offset 0.
 */
export function requireGraphemesAddon(fresh: boolean): GraphemesAddon {
  const require = createRequire(import.meta.url)
  if (fresh) {
    Reflect.deleteProperty(require.cache, require.resolve(GRAPHEMES_PACKAGE))
  }
  const poolSize = Buffer.poolSize
  Buffer.poolSize = 0
  try {
    return fromNamespace(require(GRAPHEMES_PACKAGE) as typeof GraphemesModule, 'UnicodeGraphemesAddon')
  } finally {
    Buffer.poolSize = poolSize
  }
}

// The xterm packages are CommonJS: in Node ESM a namespace holds only `default`; under CJS interop the classes
// sit on the namespace itself. A named import passes tsc and Vitest but crashes in a built ESM package.
function fromNamespace<T extends object, K extends keyof T>(namespace: T, name: K): T[K] {
  const direct = namespace[name] as T[K] | undefined
  return direct ?? (namespace as unknown as { default: T }).default[name]
}

/**
 * xterm's synchronous write, where this xterm has one: the same parser its write queue runs, without the timer
 * tick. It is internal to xterm (its core's `writeSync`, kept for its own tests and deprecated in name), so REA
 * looks for it and falls back on the write queue when a version lacks it; the renderer tests compare both ways.
 */
export function synchronousWriter(terminal: XtermTerminal): ((text: string) => void) | undefined {
  const core = (terminal as unknown as { _core?: { writeSync?: (text: string) => void } })._core
  return typeof core?.writeSync === 'function' ? (text) => core.writeSync?.(text) : undefined
}

/**
 * Whether xterm's escape sequence parser is in its ground state (0), outside any sequence. The state is internal
 * to xterm (its core's input handler's parser), so REA looks for it and answers false, "may be inside one", when
 * a version lacks it; the live terminal tests split queries across chunks to hold it to the real parser.
 */
export function parserInGround(terminal: XtermTerminal): boolean {
  return parserState(terminal) === 0
}

/** xterm's parser state (0 ground, 1 escape, …), or undefined where this xterm does not expose it. */
export function parserState(terminal: XtermTerminal): number | undefined {
  const core = terminal as unknown as { _core?: { _inputHandler?: { _parser?: { currentState?: unknown } } } }
  const state = core._core?._inputHandler?._parser?.currentState
  return typeof state === 'number' ? state : undefined
}

/**
 * Whether the program hid the cursor (DECTCEM, `ESC [ ? 25 l`), or undefined where this xterm does not expose
 * it: the state is internal to xterm (its core service's `isCursorHidden`), and the serialize addon leaves it
 * out, so REA reads it where it is and records nothing otherwise.
 */
export function cursorHidden(terminal: XtermTerminal): boolean | undefined {
  const core = terminal as unknown as { _core?: { coreService?: { isCursorHidden?: unknown } } }
  const hidden = core._core?.coreService?.isCursorHidden
  return typeof hidden === 'boolean' ? hidden : undefined
}
