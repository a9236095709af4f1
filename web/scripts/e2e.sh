#!/usr/bin/env bash
# Runs the browser tests against a freshly built server binary:
#   bash web/scripts/e2e.sh bin/draindesign [web/e2e/tests/some.test.mjs ...]
# The server gets a throwaway data directory (embedded store, mail written to
# files) on a free loopback port, and a confirmed account made with
# `users add` for the tests that need one. Arguments after the binary name
# are the test files to run, all of them by default. Set E2E_KEEP=1 to keep
# the data directory (server log and mails) for a look afterwards.
set -euo pipefail

BIN="${1:?usage: e2e.sh path/to/draindesign}"
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
# Test files named after the binary run alone (all of them otherwise).
TESTS=()
for test in "${@:2}"; do TESTS+=("$(cd "$(dirname "$test")" && pwd)/$(basename "$test")"); done
WEB="$(cd "$(dirname "$0")/.." && pwd)"
DATA="$(mktemp -d "${TMPDIR:-/tmp}/draindesign-e2e.XXXXXX")"
SERVER_PID=""

cleanup() {
  local status=$?
  if [ -n "$SERVER_PID" ]; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  if [ "$status" -ne 0 ] && [ -f "$DATA/server.log" ]; then
    echo "--- server log (last 40 lines) ---" >&2
    tail -n 40 "$DATA/server.log" >&2 || true
  fi
  if [ "${E2E_KEEP:-}" = "1" ]; then
    echo "e2e: data kept in $DATA" >&2
  else
    rm -rf "$DATA"
  fi
  exit "$status"
}
trap cleanup EXIT

PORT="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
URL="http://127.0.0.1:$PORT"

# Not a real person: a confirmed account only these tests use.
E2E_USERNAME="e2e-user"
E2E_PASSWORD="e2e-Passw0rd-$(date +%s)"
"$BIN" users add --data-dir "$DATA" --username "$E2E_USERNAME" --email "$E2E_USERNAME@example.com" \
  --password "$E2E_PASSWORD" >/dev/null
# A provider-support account: the shared-projects list and /projects/{supportID}.
E2E_SUPPORT_USERNAME="e2e-support"
E2E_SUPPORT_PASSWORD="e2e-Support-$(date +%s)"
"$BIN" users add --data-dir "$DATA" --username "$E2E_SUPPORT_USERNAME" --email "$E2E_SUPPORT_USERNAME@example.com" \
  --password "$E2E_SUPPORT_PASSWORD" --group support >/dev/null

# An advanced-mode planner: the RTF documents.
E2E_ADVANCED_USERNAME="e2e-advanced"
E2E_ADVANCED_PASSWORD="e2e-Advanced-$(date +%s)"
"$BIN" users add --data-dir "$DATA" --username "$E2E_ADVANCED_USERNAME" --email "$E2E_ADVANCED_USERNAME@example.com" \
  --password "$E2E_ADVANCED_PASSWORD" --group advanced >/dev/null

# The staff area (staff.test.mjs): an administrator, a marketing user and a
# translator (each group's top-bar links), and two standard accounts that
# the administrator blocks and deletes.
E2E_ADMIN_USERNAME="e2e-admin"
E2E_ADMIN_PASSWORD="e2e-Admin-$(date +%s)"
"$BIN" users add --data-dir "$DATA" --username "$E2E_ADMIN_USERNAME" --email "$E2E_ADMIN_USERNAME@example.com" \
  --password "$E2E_ADMIN_PASSWORD" --group admin >/dev/null
E2E_MARKETING_USERNAME="e2e-marketing"
E2E_TRANSLATOR_USERNAME="e2e-translator"
E2E_STAFF_PASSWORD="e2e-Staff-$(date +%s)"
"$BIN" users add --data-dir "$DATA" --username "$E2E_MARKETING_USERNAME" --email "$E2E_MARKETING_USERNAME@example.com" \
  --password "$E2E_STAFF_PASSWORD" --group marketing >/dev/null
"$BIN" users add --data-dir "$DATA" --username "$E2E_TRANSLATOR_USERNAME" --email "$E2E_TRANSLATOR_USERNAME@example.com" \
  --password "$E2E_STAFF_PASSWORD" --group translator >/dev/null
for victim in e2e-blockme e2e-deleteme; do
  "$BIN" users add --data-dir "$DATA" --username "$victim" --email "$victim@example.com" \
    --password "$E2E_STAFF_PASSWORD" --first Grace --last Hopper --company "Drainage Works Ltd" >/dev/null
done
# The translation editors' translator is the staff area's; a Belgian planner
# (the partner logo; the translation test switches this account to German).
E2E_TRANSLATOR_PASSWORD="$E2E_STAFF_PASSWORD"
E2E_BELGIAN_USERNAME="e2e-belgian"
E2E_BELGIAN_PASSWORD="e2e-Belgian-$(date +%s)"
"$BIN" users add --data-dir "$DATA" --username "$E2E_BELGIAN_USERNAME" --email "$E2E_BELGIAN_USERNAME@example.com" \
  --password "$E2E_BELGIAN_PASSWORD" --country BE >/dev/null

# SMTP_URL unset: the server writes each e-mail to $DATA/mail. Every /api
# exchange is recorded to $EXCHANGES and held to the OpenAPI document after
# the run (cmd/checkexchanges), which fails the run on any mismatch. The
# feedback page's mail link writes to FEEDBACK_EMAIL.
EXCHANGES="$DATA/exchanges.jsonl"
E2E_FEEDBACK_EMAIL="feedback@example.com"
env -u SMTP_URL -u DATABASE_URL -u NATS_URL PUBLIC_URL="$URL" E2E_RECORD_EXCHANGES="$EXCHANGES" FEEDBACK_EMAIL="$E2E_FEEDBACK_EMAIL" \
  "$BIN" serve --addr "127.0.0.1:$PORT" --data-dir "$DATA" >"$DATA/server.log" 2>&1 &
SERVER_PID=$!

cd "$WEB"
DRAINDESIGN_URL="$URL" E2E_USERNAME="$E2E_USERNAME" E2E_PASSWORD="$E2E_PASSWORD" E2E_MAIL_DIR="$DATA/mail" \
  E2E_SUPPORT_USERNAME="$E2E_SUPPORT_USERNAME" E2E_SUPPORT_PASSWORD="$E2E_SUPPORT_PASSWORD" \
  E2E_ADVANCED_USERNAME="$E2E_ADVANCED_USERNAME" E2E_ADVANCED_PASSWORD="$E2E_ADVANCED_PASSWORD" \
  E2E_ADMIN_USERNAME="$E2E_ADMIN_USERNAME" E2E_ADMIN_PASSWORD="$E2E_ADMIN_PASSWORD" \
  E2E_MARKETING_USERNAME="$E2E_MARKETING_USERNAME" E2E_TRANSLATOR_USERNAME="$E2E_TRANSLATOR_USERNAME" \
  E2E_STAFF_PASSWORD="$E2E_STAFF_PASSWORD" E2E_FEEDBACK_EMAIL="$E2E_FEEDBACK_EMAIL" \
  E2E_TRANSLATOR_USERNAME="$E2E_TRANSLATOR_USERNAME" E2E_TRANSLATOR_PASSWORD="$E2E_TRANSLATOR_PASSWORD" \
  E2E_BELGIAN_USERNAME="$E2E_BELGIAN_USERNAME" E2E_BELGIAN_PASSWORD="$E2E_BELGIAN_PASSWORD" \
  node e2e/run.mjs "${TESTS[@]}" || status=$?

# Checked even after a failed browser test: a mismatch is worth knowing either way.
echo "e2e: checking the recorded /api exchanges against api/openapi/openapi.json" >&2
(cd "$WEB/.." && go run ./cmd/checkexchanges "$EXCHANGES") || status=1
exit "${status:-0}"
