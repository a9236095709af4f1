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

bash "$(dirname "$0")/apt-install.sh" install-poppler poppler-utils

if ! command -v pdftotext >/dev/null 2>&1 || ! command -v pdftoppm >/dev/null 2>&1; then
  echo "install-poppler: pdftotext or pdftoppm still missing after apt-get install" >&2
  exit 1
fi
echo "poppler-utils installed: $(command -v pdftotext)"
