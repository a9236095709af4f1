#!/usr/bin/env bash
# apt-install.sh WHO PACKAGE...: installs Debian packages for the test tools,
# as root or through password-less sudo. Each install-*.sh script checks
# for its tool first and calls this only when it is missing.
set -euo pipefail

who="$1"
shift

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo -n"
  else
    echo "$who: not root and no sudo; install $* by hand" >&2
    exit 1
  fi
fi

# env inside the command so the setting survives sudo's environment reset.
APT="$SUDO env DEBIAN_FRONTEND=noninteractive apt-get"
$APT update -q
$APT install -y -q --no-install-recommends "$@"
