#!/usr/bin/env bash
# Installs Debian's poppler-utils (pdftotext, pdfinfo, pdftoppm): the Go tests
# of the PDF documents read the generated files back with them and compare
# rendered pages with golden images (domain/document/pdf/pdftest).
set -euo pipefail

if command -v pdftotext >/dev/null 2>&1 && command -v pdfinfo >/dev/null 2>&1 &&
  command -v pdftoppm >/dev/null 2>&1; then
  echo "poppler-utils present: $(command -v pdftotext)"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo -n"
  else
    echo "install-poppler: not root and no sudo; install the 'poppler-utils' package by hand" >&2
    exit 1
  fi
fi

# env inside the command so the setting survives sudo's environment reset.
APT="$SUDO env DEBIAN_FRONTEND=noninteractive apt-get"
$APT update -q
$APT install -y -q --no-install-recommends poppler-utils

if ! command -v pdftotext >/dev/null 2>&1 || ! command -v pdftoppm >/dev/null 2>&1; then
  echo "install-poppler: pdftotext or pdftoppm still missing after apt-get install" >&2
  exit 1
fi
echo "poppler-utils installed: $(command -v pdftotext)"
