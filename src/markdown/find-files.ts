import { readdirSync, statSync } from 'node:fs'
import path from 'node:path'

/**
 * The Markdown files `rea test` was given: paths as they are, folders searched for `*.md`, and globs (`*` and
 * `?` within a name, `**` for any folders) expanded here, for a shell that passes them quoted or has no globbing
 * (Windows' cmd, npm scripts run by it). Folders named `node_modules` and those starting with a dot are not searched.
 */
export interface FoundFiles {
  /** Absolute paths, each once, in the order given (sorted within a folder or a glob). */
  readonly files: readonly string[]
  /** Arguments that named nothing: each one a sentence. */
  readonly problems: readonly string[]
}

const GLOB = /[*?]/

export function findMarkdownFiles(arguments_: readonly string[], cwd: string): FoundFiles {
  const files: string[] = []
  const problems: string[] = []
  for (const argument of arguments_) {
    const found = GLOB.test(argument) ? expandGlob(argument, cwd) : namedPath(argument, cwd)
    if (typeof found === 'string') {
      problems.push(found)
    } else if (found.length === 0) {
      problems.push(`${argument}: no Markdown file matches`)
    } else {
      files.push(...found.filter((file) => !files.includes(file)))
    }
  }
  return { files, problems }
}

function namedPath(argument: string, cwd: string): string[] | string {
  const absolute = path.resolve(cwd, argument)
  let isDirectory: boolean
  try {
    isDirectory = statSync(absolute).isDirectory()
  } catch {
    return `${argument}: no such file or folder`
  }
  return isDirectory ? walk(absolute).filter((file) => file.endsWith('.md')) : [absolute]
}

function walk(directory: string): string[] {
  const found: string[] = []
  for (const entry of readdirSync(directory, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : 1,
  )) {
    const full = path.join(directory, entry.name)
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) {
        found.push(...walk(full))
      }
    } else {
      found.push(full)
    }
  }
  return found
}

function expandGlob(pattern: string, cwd: string): string[] {
  const absolute = path.resolve(cwd, pattern)
  const parts = absolute.split(path.sep)
  const fixed = parts.findIndex((part) => GLOB.test(part))
  const base = parts.slice(0, fixed).join(path.sep) || path.sep
  const matcher = globRegex(parts.slice(fixed).join('/'))
  let candidates: string[]
  try {
    candidates = walk(base)
  } catch {
    return []
  }
  return candidates.filter((file) => matcher.test(path.relative(base, file).split(path.sep).join('/')))
}

function globRegex(glob: string): RegExp {
  let source = ''
  for (let index = 0; index < glob.length; index++) {
    const character = glob[index] as string
    if (glob.startsWith('**/', index)) {
      source += '(?:[^/]*/)*'
      index += 2
    } else if (glob.startsWith('**', index)) {
      source += '.*'
      index += 1
    } else if (character === '*') {
      source += '[^/]*'
    } else if (character === '?') {
      source += '[^/]'
    } else {
      source += character.replace(/[.+^${}()|[\]\\]/g, '\\$&')
    }
  }
  return new RegExp(`^${source}$`)
}
