#!/usr/bin/env bash
# The browser the UI tests drive: Debian's chromium, installed with apt-get when missing (as root
# or through sudo) — never Playwright's own download, which has no route from these machines.
# Idempotent: when /usr/bin/chromium is there it only checks it runs. Prints the path on stdout;
# what it did goes to stderr.
#
#   scripts/chromium.sh        install when missing, print /usr/bin/chromium
set -euo pipefail

CHROMIUM="${SWITCHBOARD_CHROMIUM:-/usr/bin/chromium}"

say() { printf 'chromium: %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    say "need root (or sudo) to run: $*"; return 1
  fi
}

if [ ! -x "$CHROMIUM" ]; then
  say "installing chromium from Debian"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi

if [ ! -x "$CHROMIUM" ]; then
  say "$CHROMIUM is still missing after apt-get install chromium; install Debian's chromium package by hand"
  exit 1
fi

# A binary that cannot start (a missing shared library) fails here, with its own message, not
# in the middle of a test.
if ! version="$("$CHROMIUM" --headless --no-sandbox --disable-gpu --version 2>&1)"; then
  say "$CHROMIUM does not start: $version"
  exit 1
fi
# The launcher's /etc/chromium.d snippets may print shell noise before the version line.
say "$(printf '%s\n' "$version" | grep -m1 -i '^chromium' || printf '%s' "$version")"
echo "$CHROMIUM"
