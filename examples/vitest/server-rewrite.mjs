#!/usr/bin/env node
// The rewrite (the reconstruction): raw node:net instead of node:http, and it must behave the same.
import { connect, createServer } from 'node:net'

const server = createServer((socket) => {
  socket.once('data', (chunk) => {
    const path = chunk.toString().split(' ')[1]
    const [status, body] = path === '/health' ? ['200 OK', 'ok'] : ['404 Not Found', 'not found']
    socket.end(`HTTP/1.1 ${status}\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`)
  })
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const { port } = server.address()
console.log(`listening on http://127.0.0.1:${port}/`)
const reply = await new Promise((resolve) => {
  let text = ''
  const client = connect(port, '127.0.0.1', () =>
    client.write('GET /health HTTP/1.1\r\nhost: localhost\r\n\r\n'),
  )
  client.on('data', (chunk) => (text += chunk))
  client.on('end', () => resolve(text))
})
const [head, body] = reply.split('\r\n\r\n')
console.log(`GET /health → ${head.split(' ')[1]} ${body}`)
// Stays up for a second before stopping, as a smoke-test server does. This also makes the run long enough
// that CI load cannot double its duration (exit times differ only beyond 250 ms and half the longer run).
await new Promise((resolve) => setTimeout(resolve, 1000))
await new Promise((resolve) => server.close(resolve))
console.log('stopped')
