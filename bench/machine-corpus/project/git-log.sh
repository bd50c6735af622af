#!/bin/sh
# A repository made now by whoever runs it: its commit hash, author and date change with them.
set -e
rm -rf repo
git init -q repo
cd repo
echo hello > greeting.txt
git add greeting.txt
git -c user.name="$(id -un)" -c user.email="$(id -un)@$(hostname)" commit -q -m "${1:-Add a greeting}"
git --no-pager log
