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

# Fonts: DejaVu is the RTF writer's first font (Cyrillic and Central European
# Latin); without it LibreOffice substitutes and the PDF text may differ.
bash "$(dirname "$0")/apt-install.sh" install-libreoffice libreoffice-writer fonts-dejavu-core poppler-utils

if ! command -v soffice >/dev/null 2>&1; then
  echo "install-libreoffice: soffice still missing after apt-get install" >&2
  exit 1
fi
echo "soffice installed: $(soffice --version 2>/dev/null || command -v soffice)"
