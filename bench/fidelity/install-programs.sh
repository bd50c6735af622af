#!/usr/bin/env bash
# Installs, from Debian's packages, the programs bench/fidelity.mjs compares REA's screens with tmux's for
# (docs/fidelity.md). The benchmark skips a program that is missing, with the reason printed; no test needs them,
# so CI does not install them. Run as root: `bench/fidelity/install-programs.sh`, then `node bench/run.mjs fidelity`.
set -euo pipefail

# command → the Debian package that provides it (the names differ for several).
declare -A package_of=(
  [tmux]=tmux [vim]=vim [less]=less [htop]=htop [nano]=nano [mc]=mc [fzf]=fzf [dialog]=dialog
  [whiptail]=whiptail [python3]=python3 [vttest]=vttest [sqlite3]=sqlite3 [bc]=bc [ed]=ed [w3m]=w3m
  [ncdu]=ncdu [git]=git [tig]=tig [ssh-keygen]=openssh-client [top]=procps [man]=man-db [ranger]=ranger
  [nnn]=nnn [emacs]=emacs-nox [gdb]=gdb [script]=bsdutils [nvim]=neovim [ptpython]=ptpython [fish]=fish
  [kak]=kakoune [micro]=micro
)

missing=()
for command in "${!package_of[@]}"; do
  command -v "$command" >/dev/null 2>&1 || missing+=("${package_of[$command]}")
done
if [ "${#missing[@]}" -eq 0 ]; then
  echo "every fidelity program is installed"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1 || [ "$(id -u)" != 0 ]; then
  echo "needs root and apt-get to install: ${missing[*]}" >&2
  exit 1
fi
echo "installing ${missing[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
