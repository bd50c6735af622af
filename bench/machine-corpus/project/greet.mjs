// Greets; with --shout it shouts (a behaviour change).
const text = 'Hello, Ada!'
console.log(process.argv[2] === '--shout' ? text.toUpperCase() : text)
