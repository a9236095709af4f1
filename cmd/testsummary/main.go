// Command testsummary reads `go test -json` on standard input and writes
// what `go test` would (one line per package, the output of failing
// tests), then every skipped test with its reason, so a run without
// PostgreSQL, NATS or LibreOffice says which suites did not run instead of
// a quiet "ok". It exits 1 when a test or package failed, or when
// -fail-on-skip is set and a test skipped (the CI mode: there every suite
// must run).
//
//	go test -json ./... | go run ./cmd/testsummary [-fail-on-skip]
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	failOnSkip := flag.Bool("fail-on-skip", false, "exit 1 when any test skipped")
	flag.Parse()
	s, err := summarize(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		os.Exit(2)
	}
	if s.failed || (*failOnSkip && len(s.skipped) > 0) {
		os.Exit(1)
	}
}
