import path from 'node:path'

/**
 * `file` relative to `root` with `/` separators when it lies inside the root (`''` for the root itself), or
 * null when it lies outside. A child folder named `..cache` is inside: only `..` itself or a path starting with
 * `../` leaves the root. `paths` is the path flavour of the host that wrote the paths (Evidence from another OS).
 */
export function pathInside(root: string, file: string, paths: path.PlatformPath = path): string | null {
  const relative = paths.relative(root, file)
  if (relative === '..' || relative.startsWith(`..${paths.sep}`) || paths.isAbsolute(relative)) {
    return null
  }
  return relative.split(paths.sep).join('/')
}

/** A path in `/` form, for messages and Evidence written on any host. */
export function toPosix(file: string, paths: path.PlatformPath = path): string {
  return file.split(paths.sep).join('/')
}
