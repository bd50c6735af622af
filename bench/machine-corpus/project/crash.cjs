// An uncaught error: Node prints the stack with this file's absolute path.
function fail() {
  throw new Error('something broke')
}
fail()
