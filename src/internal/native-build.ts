/**
 * Where the package's install script (native/linux/build.mjs) puts what it compiles, relative to the package root:
 * the PTY spawner `rea_pty.node` and the supervisor's waiter `rea-supervisor`. The root is beside dist/ in the
 * package and beside src/ in a checkout.
 */
export const NATIVE_BUILD_DIRECTORY = 'native/linux/build/Release'
