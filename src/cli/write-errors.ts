type StandardStreamName = 'stdout' | 'stderr'

const ignore = (): undefined => undefined

/**
 * A closed terminal or pipe fails writes with EIO or EPIPE. Write callbacks handle that where it matters (the
 * final document); without a listener, Node would instead crash on the stream's 'error' event.
 *
 * The listener is attached when the stream is first used, by REA or by Node itself (a warning), never before:
 * Node creates `process.stdout` and `process.stderr` on first access, and creating one loads Node's stream
 * modules (for a pipe, its net module too). A capture that writes its Evidence to `--output` without
 * progress never touches either.
 */
export function ignoreWriteErrorsOnFirstUse(name: StandardStreamName): void {
  const descriptor = Object.getOwnPropertyDescriptor(process, name)
  if (descriptor?.get === undefined || descriptor.configurable !== true) {
    process[name].on('error', ignore)
    return
  }
  const create = descriptor.get.bind(process) as () => NodeJS.WriteStream
  let guarded = false
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: descriptor.enumerable ?? true,
    get(): NodeJS.WriteStream {
      const stream = create()
      if (!guarded) {
        guarded = true
        stream.on('error', ignore)
      }
      return stream
    },
  })
}
