#!/usr/bin/env bash
# Installs Debian's haproxy, the load balancer `make load` puts in front of
# the app instances (on loopback ports, started and stopped by the load
# program; the system service is not used).
set -euo pipefail

if command -v haproxy >/dev/null 2>&1; then
  echo "haproxy present: $(command -v haproxy)"
  exit 0
fi

bash "$(dirname "$0")/apt-install.sh" install-haproxy haproxy

if ! command -v haproxy >/dev/null 2>&1; then
  echo "install-haproxy: haproxy still missing after apt-get install" >&2
  exit 1
fi
echo "haproxy installed: $(haproxy -v 2>/dev/null | head -1)"
