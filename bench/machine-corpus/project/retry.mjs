// A configured back-off the program announces: a change of it is a change of behaviour.
console.log(`Connection refused; retrying in ${process.argv[2] ?? '5'}s`)
