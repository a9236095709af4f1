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

# Fonts: without them headless screenshots show boxes for text and flag emoji.
bash "$(dirname "$0")/apt-install.sh" install-chromium chromium fonts-liberation fonts-noto-color-emoji

if [ ! -x "$CHROMIUM" ]; then
  echo "install-chromium: $CHROMIUM still missing after apt-get install" >&2
  exit 1
fi
echo "chromium installed: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")"
