#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests. Playwright's own browser
# downloads cannot reach their hosts from the project's machines, so the e2e
# runner drives this system build through playwright-core instead.
set -euo pipefail

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"

if [ -x "$CHROMIUM" ]; then
  echo "chromium present: $CHROMIUM"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo -n"
  else
    echo "install-chromium: not root and no sudo; install the 'chromium' package by hand" >&2
    exit 1
  fi
fi

# env inside the command so the setting survives sudo's environment reset.
APT="$SUDO env DEBIAN_FRONTEND=noninteractive apt-get"
$APT update -q
# Fonts: without them headless screenshots show boxes for text and flag emoji.
$APT install -y -q --no-install-recommends chromium fonts-liberation fonts-noto-color-emoji

if [ ! -x "$CHROMIUM" ]; then
  echo "install-chromium: $CHROMIUM still missing after apt-get install" >&2
  exit 1
fi
echo "chromium installed: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")"
