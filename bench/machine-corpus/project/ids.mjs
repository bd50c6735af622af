// A client that tags each run with a random session id.
import { randomUUID } from 'node:crypto'

console.log(`session ${randomUUID()} started`)
