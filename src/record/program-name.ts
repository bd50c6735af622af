import path from 'node:path'

/**
 * Launchers whose first file argument is the program: interpreters, runners and `env`. Each maps to its options
 * that take a value (`node --import x`, `python3 -W ignore`), so the value is not mistaken for the program.
 */
const LAUNCHERS: Readonly<Record<string, readonly string[]>> = {
  node: [
    '-r',
    '--require',
    '--import',
    '--loader',
    '--experimental-loader',
    '--conditions',
    '-C',
    '--env-file',
    '--title',
  ],
  deno: ['--config', '-c', '--import-map'],
  bun: ['--cwd', '--preload', '-r', '--env-file'],
  tsx: ['--tsconfig', '--import'],
  'ts-node': ['-P', '--project', '-r', '--require', '-C', '--compiler'],
  npx: ['-p', '--package'],
  python: ['-W', '-X', '-Q'],
  ruby: ['-I', '-r', '-E', '-C'],
  perl: ['-I', '-M', '-m', '-x'],
  php: ['-c', '-d', '-z'],
  sh: ['-o', '+o'],
  bash: ['-o', '+o', '--rcfile', '--init-file'],
  zsh: ['-o', '+o'],
  dash: ['-o', '+o'],
  env: ['-u', '--unset', '-C', '--chdir', '-S', '--split-string'],
  uv: ['--python', '-p', '--with', '--project', '--directory'],
  pnpm: ['--dir', '-C', '--filter', '-F'],
  yarn: ['--cwd'],
}

/** Sub-commands a runner puts before the program (`deno run x.ts`, `bun run x.ts`, `uv run x.py`). */
const RUN_WORDS = new Set(['run', 'exec', 'x', 'dlx', 'tool'])

/**
 * The name a recording is known by: the script or program the command runs, not the interpreter that runs it.
 * `node ./signup.mjs` is `signup`, `env DEBUG=1 python3 -u tools/setup.py` is `setup`, `python3 -m http.server` is
 * `http.server`, `./bin/tool.sh` is `tool`; a launcher with nothing to run but inline code (`sh -c …`, `node -e …`)
 * keeps its own name.
 */
export function programName(executable: string, args: readonly string[]): string {
  const words = [executable, ...args]
  let index = 0
  while (index < words.length) {
    const launcher = launcherOf(words[index] as string)
    if (launcher === undefined) {
      return bareName(words[index] as string)
    }
    const next = programIndex(words, index + 1, LAUNCHERS[launcher] as readonly string[])
    if (next === undefined) {
      break
    }
    if (next.module !== undefined) {
      return next.module
    }
    index = next.index
  }
  return bareName(executable)
}

/** The launcher `word` names (`python3.12` is `python`, `/usr/bin/env` is `env`), or undefined. */
function launcherOf(word: string): string | undefined {
  const base = path.basename(word)
  const name = /^python[\d.]*$/.test(base) ? 'python' : /^(?:node|nodejs)$/.test(base) ? 'node' : base
  return Object.hasOwn(LAUNCHERS, name) ? name : undefined
}

/** Where the launched program is among `words`, after the launcher's options; a `-m module` names it directly. */
function programIndex(
  words: readonly string[],
  from: number,
  valued: readonly string[],
): { index: number; module?: string } | undefined {
  for (let index = from; index < words.length; index++) {
    const word = words[index] as string
    if (word === '-m' && words[index + 1] !== undefined) {
      return { index: index + 1, module: words[index + 1] as string }
    }
    if (valued.includes(word)) {
      index++
      continue
    }
    if (word === '-c' || word === '-e' || word === '--eval' || word === '-p' || word === '--print') {
      // Inline code: there is no program file to name the recording after.
      return undefined
    }
    if (word.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || RUN_WORDS.has(word)) {
      continue
    }
    return { index }
  }
  return undefined
}

/** The file name without its folder or extension: `./bin/signup.mjs` is `signup`. */
function bareName(word: string): string {
  return path.basename(word).replace(/\.[^.]*$/, '') || 'recording'
}
