# A tiny full-screen menu for docs/markdown-cases.md: Down moves, Enter picks.
# Keys are read one at a time, unechoed, before anything is drawn.
stty -echo -icanon min 1
printf '\033[?1049h\033[H\033[2J'
printf 'Pick a fruit:\n> Apple\n  Banana\n'
key=$(dd bs=3 count=1 2>/dev/null)
printf '\033[H\033[2JPick a fruit:\n  Apple\n> Banana\n'
dd bs=1 count=1 >/dev/null 2>&1
stty echo icanon
printf '\033[?1049l'
echo 'You picked Banana.'
