#!/usr/bin/env bash
# Installs Debian's LibreOffice Writer for the RTF writer's check: the Go test
# in domain/document/rtf converts a generated file with
# `soffice --headless --convert-to pdf` and reads the PDF back with pdftotext,
# so poppler-utils comes along. Writer alone is enough to open RTF; the
# recommended packages (Java, the other office programs) are left out.
set -euo pipefail

if command -v soffice >/dev/null 2>&1; then
  echo "soffice present: $(command -v soffice)"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo -n"
  else
    echo "install-libreoffice: not root and no sudo; install the 'libreoffice-writer' package by hand" >&2
    exit 1
  fi
fi

# env inside the command so the setting survives sudo's environment reset.
APT="$SUDO env DEBIAN_FRONTEND=noninteractive apt-get"
$APT update -q
# Fonts: DejaVu is the RTF writer's first font (Cyrillic and Central European
# Latin); without it LibreOffice substitutes and the PDF text may differ.
$APT install -y -q --no-install-recommends libreoffice-writer fonts-dejavu-core poppler-utils

if ! command -v soffice >/dev/null 2>&1; then
  echo "install-libreoffice: soffice still missing after apt-get install" >&2
  exit 1
fi
echo "soffice installed: $(soffice --version 2>/dev/null || command -v soffice)"
