import { pathInside, toPosix } from './path-inside.js'

/** POSIX path of `file` relative to `root`, for messages and reports; files outside the root stay absolute. */
export function relativePosix(root: string, file: string): string {
  const relative = pathInside(root, file)
  return relative === null || relative === '' ? toPosix(file) : relative
}
