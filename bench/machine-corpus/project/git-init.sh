#!/bin/sh
# A new repository: git prints where, and (without init.defaultBranch in ~/.gitconfig) a hint.
rm -rf repo
git init repo
