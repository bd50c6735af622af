// Today's date as a German program prints it.
console.log(`Stand: ${new Date().toLocaleDateString('de-DE')}`)
