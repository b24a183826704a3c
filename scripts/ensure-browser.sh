#!/usr/bin/env bash
# Makes sure the e2e suite has a Chromium: Debian's `chromium` package when /usr/bin/chromium is missing and
# apt-get can be used (root, or passwordless sudo), otherwise Playwright's own build.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  exit 0
fi

if command -v apt-get >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else SUDO=none; fi
  if [ "$SUDO" != none ]; then
    echo "Installing Debian chromium for the e2e tests…"
    if $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium; then
      exit 0
    fi
    echo "apt-get could not install chromium; falling back to Playwright's browser." >&2
  fi
fi

npx playwright install chromium
