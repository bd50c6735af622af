import { describe, expect, test } from 'vitest'
import { normalizePorts, PORT_NORMALIZATION_VERSION, PORT_PLACEHOLDER } from '../../../src/normalize/ports.js'

const MIB = 1024 * 1024

/** Builds an input and its expected output from a template whose `{…}` parts are ports. */
const ported = (template: string): [string, string] => [
  template.replaceAll(/\{(\d+)\}/g, '$1'),
  template.replaceAll(/\{\d+\}/g, PORT_PLACEHOLDER),
]

const recognised: [string, string][] = [
  // Explicit fields
  ported('port {8080}'),
  ported('port={8080}'),
  ported('port: {8080}'),
  ported('port:{8080}'),
  ported('port = {8080}'),
  ported('Port: {8080}'),
  ported('PORT={8080}'),
  ported('"port": {8080}'),
  ported('{"port":{8080},"host":"db"}'),
  ported('"port":"{8080}"'),
  ported("'port': '{8080}'"),
  ported("port '{8080}'"),
  ported('port\t{8080}'),
  ported('--port {8080}'),
  ported('--port={8080}'),
  ported('tcp_port={53}'),
  ported('TCP_PORT: {53}'),
  ported('udp_port: {514}'),
  ported('server.port: {8080}'),
  ported('listen {80};'),
  ported('Listen {80}'),
  ported('listen :{8080}'),
  ported('listen=:{3000}'),
  ported('listen: ":{8080}"'),
  ported('port {0}'),
  ported('port {65535}'),
  ported('port {1}, host x'),
  ported('connecting (port {5432})'),
  ported('listening on port {3000}\r\n'),
  ported('ports: 80 and port {443}'),
  // URL authorities
  ported('http://example.com:{8080}/x'),
  ported('https://example.com:{8443}'),
  ported('postgres://u:p@db:{5432}/app'),
  ported('mysql://root@db.internal:{3306}'),
  ported('ws://[::1]:{9000}'),
  ported('http://[2001:db8::1]:{80}/'),
  ported('redis://localhost:{6379}/0'),
  ported('amqp://guest:guest@rabbit:{5672}?heartbeat=10'),
  ported('see http://api:{8080}#docs'),
  ported('(http://example.com:{80})'),
  ported('"http://127.0.0.1:{8080}"'),
  ported('HTTP://EXAMPLE.COM:{80}/'),
  // IP and localhost endpoints
  ported('127.0.0.1:{8080}'),
  ported('0.0.0.0:{3000}'),
  ported('listen 0.0.0.0:{8080}'),
  ported('255.255.255.255:{1}'),
  ported('bound to 10.0.0.12:{43127}, ready'),
  ported('[::1]:{8080}'),
  ported('[::]:{80}'),
  ported('[fe80::1%eth0]:{22}'),
  ported('[::ffff:127.0.0.1]:{443}'),
  ported('[1:2:3:4:5:6:7:8]:{9}'),
  ported('localhost:{8080}'),
  ported('LocalHost:{8080}'),
  ported('at localhost:{8080}/health'),
  ported('localhost:{80} and 127.0.0.1:{81} and [::1]:{82}'),
  ported('\u001b[32mlocalhost:{8080}\u001b[0m'),
  ported('\u001b[1;36mport {8080}\u001b[22m'),
  // A period that ends a sentence
  ported('port: {8080}. '),
  ported('port: {8080}.\r\n'),
  ported('on localhost:{8080}.\n'),
  ported('port {8080}.)'),
  // Other punctuation after the port
  ported('port {8080}, host x'),
  ported('port {8080}/tcp'),
  ported('localhost:{8080}:'),
  ported('port {8080}-8090'),
  ported('http://localhost:{3000}/1'),
]

const preserved: string[] = [
  // Counters, dimensions, lines, versions, times
  'attempt 3',
  '3/10',
  'count: 42',
  'retry 2 of 5',
  '80x24',
  'port 80x24',
  'file.ts:42',
  'src/a.ts:42:7',
  'v1.2.3',
  '1.2.3',
  'node:20',
  '12:30:45',
  'took 1.5s',
  // Ambiguous bare host labels and unbracketed IPv6
  'db:5432',
  'server:8080',
  'example.com:443',
  'listen server:8080',
  '::1:8080',
  'fe80::1:22',
  // Not the whole word
  'import 3',
  'support: 4',
  'report 5',
  'airport 6',
  'passport: 7',
  'ports: 3',
  'portal 8080',
  'SERVER_PORT=8080',
  'my_port=8080',
  'listener 80',
  'mylocalhost:1',
  'my-localhost:1',
  'app.localhost:3000',
  'v1.2.3.4:5',
  '1.1.2.3.4:80',
  // Not a port number
  'port 65536',
  'port 123456',
  'localhost:99999',
  ':08080',
  'localhost:08080',
  'port 007',
  'port 8080abc',
  'port 8080_x',
  'port 3/10',
  'port 12:30',
  'localhost:8080:80',
  'localhost:8080.5',
  'localhost:8080.example',
  'port 1.2.3',
  'port 8080.5',
  '127.0.0.1:8080.1',
  // Not an address
  '256.1.1.1:80',
  '1.2.3.256:80',
  '01.2.3.4:80',
  '1.2.3:80',
  '[INFO]:3',
  '[12:30]:45',
  // URL forms without a port, or digits that are not the port
  'http://example.com/a:80',
  'http://u:5432@db/x',
  'http://example.com:8080x/',
  'file:///srv/app:80',
  '://example.com:80',
]

describe('normalizePorts', () => {
  test('has a frozen version and placeholder', () => {
    expect(PORT_NORMALIZATION_VERSION).toBe('endpoint-ports-v1')
    expect(PORT_PLACEHOLDER).toBe('<port>')
  })

  test('has at least 60 table cases', () => {
    expect(recognised.length + preserved.length).toBeGreaterThanOrEqual(60)
  })

  test.for(recognised)('replaces the port in %j', ([input, expected]) => {
    expect(expected).not.toBe(input)
    expect(normalizePorts(input)).toBe(expected)
  })

  test.for(preserved)('keeps %j', (input) => {
    expect(normalizePorts(input)).toBe(input)
  })

  test('returns the same string when nothing is recognised', () => {
    const text = 'nothing to see: 42'
    expect(normalizePorts(text)).toBe(text)
    expect(normalizePorts('')).toBe('')
  })

  test('replaces only the digits, keeping the text around them', () => {
    expect(normalizePorts('A localhost:1 B port=2 C')).toBe('A localhost:<port> B port=<port> C')
  })

  test('treats a word outside the BMP as a word before a field', () => {
    expect(normalizePorts('\u{1D400}port 80')).toBe('\u{1D400}port 80')
    expect(normalizePorts('\u{1F600}port 80')).toBe('\u{1F600}port <port>')
  })
})

describe('normalizePorts at a chunk boundary', () => {
  test.for([
    ['port: 8080', 'port: <port>'],
    ['localhost:8080', 'localhost:<port>'],
    ['http://example.com:8080', 'http://example.com:<port>'],
  ])('replaces a port whose digits end the chunk: %j', ([input, expected]) => {
    expect(normalizePorts(input!)).toBe(expected)
  })

  test.for(['port: 8080.', 'localhost:8080.', 'listening on 127.0.0.1:3000.'])(
    'keeps a port whose period ends the chunk: %j',
    (input) => {
      expect(normalizePorts(input)).toBe(input)
    },
  )

  test('cannot see a form whose prefix and digits arrive in different chunks', () => {
    expect(normalizePorts('listening on localhost:')).toBe('listening on localhost:')
    expect(normalizePorts('8080\r\n')).toBe('8080\r\n')
  })

  test('normalizes each part of a number split across chunks differently from the whole', () => {
    const whole = normalizePorts('localhost:8080/')
    const split = normalizePorts('localhost:80') + normalizePorts('80/')
    expect(whole).toBe('localhost:<port>/')
    expect(split).toBe('localhost:<port>80/')
  })
})

describe('normalizePorts on adversarial input', () => {
  test.for([
    ['digits and colons', '1:'.repeat(MIB / 2)],
    ['a dotted run', '1.'.repeat(MIB / 2)],
    ['repeated IPv4 endpoints with bad ports', '1.1.1.1:1.'.repeat(MIB / 10)],
    ['an unclosed bracket', `[${'1:'.repeat(MIB / 2)}`],
    ['one URL with a huge authority', `http://${'a:'.repeat(MIB / 2)}`],
    ['a field followed by blanks', `port${' '.repeat(MIB)}`],
    ['a field followed by a huge number', `port ${'9'.repeat(MIB)}`],
    ['repeated fields', 'port port='.repeat(MIB / 10)],
    ['repeated localhost prefixes', 'localhost:'.repeat(MIB / 10)],
    ['repeated schemes', 'a://'.repeat(MIB / 4)],
    ['a huge escape parameter', `\u001b[${'1'.repeat(MIB)}mlocalhost:1`],
  ])('finishes on a 1 MiB line of %s', ([, input]) => {
    expect(normalizePorts(input!)).toBeTypeOf('string')
  })

  test('normalizes a 1 MiB chunk with many ports', () => {
    const input = 'localhost:8080 '.repeat(MIB / 15)
    expect(normalizePorts(input)).toBe('localhost:<port> '.repeat(MIB / 15))
  })
})
