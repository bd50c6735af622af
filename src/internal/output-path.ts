import { accessSync, constants, realpathSync, statSync, type Stats } from 'node:fs'
import path from 'node:path'
import type { ReaIssue } from '../errors.js'

/** A file the command reads, which its output must never replace. */
export interface OutputInput {
  /** As the user gave it. */
  readonly path: string
  /** How messages name it: "the scenario", "the authority". */
  readonly label: string
}

/**
 * Problems with writing a document to `file`, found before anything runs, each an issue under `field` (the
 * option or argument that named it): an empty path, a directory, a folder that does not exist, a location
 * REA may not write, or a file that is one of the command's `inputs` under another name (a symlink or a hard
 * link: files are compared by device and inode, not by spelling). A regular file is replaced whole through a
 * temporary file in its folder, so that folder must be writable too. A relative path resolves against the
 * current directory, the capture root.
 *
 * The check cannot promise the write will succeed: a disk can fill and a folder can vanish while the command
 * runs. Callers keep the document somewhere else when the final write fails.
 *
 * @example
 * const issues = outputPathIssues('capture.json', '--output', [{ path: 'scenario.json', label: 'the scenario' }])
 */
export function outputPathIssues(
  file: string,
  field: string,
  inputs: readonly OutputInput[] = [],
): ReaIssue[] {
  const issue = (rule: string, message: string): ReaIssue[] => [{ path: field, rule, message }]
  if (file === '') {
    return issue('minimum', 'must name a file: got an empty path')
  }
  if (file.includes('\0')) {
    return issue('no_nul', 'a path may not contain a NUL character')
  }
  const resolved = path.resolve(file)
  const target = statPath(resolved)
  if (target.stats === undefined) {
    if (target.code !== 'ENOENT' && target.code !== 'ENOTDIR') {
      return issue('usable_path', `${resolved} cannot be used (${target.code})`)
    }
    const directory = path.dirname(resolved)
    if (statPath(directory).stats?.isDirectory() !== true) {
      return issue(
        'directory_exists',
        `must be in an existing directory: ${directory} is not one (resolved against the capture root ${process.cwd()})`,
      )
    }
    return writableIssues(directory, issue)
  }
  if (target.stats.isDirectory()) {
    return issue('not_a_directory', `must name a file: ${resolved} is a directory`)
  }
  for (const input of inputs) {
    const stats = statPath(path.resolve(input.path)).stats
    if (stats !== undefined && stats.dev === target.stats.dev && stats.ino === target.stats.ino) {
      return issue(
        'distinct_from_input',
        `is the same file as ${input.label} ${input.path}${path.resolve(input.path) === resolved ? '' : ' (through a link)'}: writing the output would destroy the input; choose a different file`,
      )
    }
  }
  const fileIssues = writableIssues(resolved, issue)
  if (fileIssues.length > 0 || !target.stats.isFile()) {
    return fileIssues
  }
  // A regular file is replaced whole through a temporary file beside it (writeFileAtomic): its folder must take one.
  const folder = path.dirname(realPath(resolved))
  return writableIssues(folder, (rule, message) =>
    issue(rule, `${message}: REA replaces ${resolved} whole, through a temporary file in that folder`),
  )
}

function realPath(file: string): string {
  try {
    return realpathSync(file)
  } catch {
    // Found by stat a moment ago; if it vanished, its own folder is the one the write would use.
    return file
  }
}

function writableIssues(file: string, issue: (rule: string, message: string) => ReaIssue[]): ReaIssue[] {
  try {
    accessSync(file, constants.W_OK)
    return []
  } catch (error) {
    return issue(
      'writable',
      `${file} is not writable (${(error as NodeJS.ErrnoException).code ?? 'unknown'})`,
    )
  }
}

function statPath(file: string): { stats?: Stats; code?: string } {
  try {
    return { stats: statSync(file) }
  } catch (error) {
    // Why the path cannot be used is the answer, not a failure of the check.
    return { code: (error as NodeJS.ErrnoException).code ?? 'unknown' }
  }
}
