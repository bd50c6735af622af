import path from 'node:path'

/** POSIX path of `file` relative to `root`, for messages and reports; files outside the root stay absolute. */
export function relativePosix(root: string, file: string): string {
  const relative = path.relative(root, file)
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative)
    ? file.split(path.sep).join('/')
    : relative.split(path.sep).join('/')
}
