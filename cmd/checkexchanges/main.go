// Command checkexchanges holds the /api exchanges a server recorded (with
// E2E_RECORD_EXCHANGES set, as web/scripts/e2e.sh starts it) to the OpenAPI
// document, with the kin-openapi validator the Go HTTP tests use:
//
//	go run ./cmd/checkexchanges FILE...
//
// It prints every mismatch, grouped by operation and status, and exits 1
// if there is one, or if the files hold no exchange at all (a record that
// was never written must not pass).
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"draindesign/api/openapi/openapitest"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: checkexchanges FILE...")
		os.Exit(2)
	}
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "checkexchanges:", err)
		os.Exit(1)
	}
}

// run checks every exchange in files and says how many matched.
func run(files []string, out io.Writer) error {
	v, err := openapitest.Load()
	if err != nil {
		return err
	}
	var all []openapitest.Exchange
	for _, name := range files {
		list, err := read(name)
		if err != nil {
			return err
		}
		all = append(all, list...)
	}
	if len(all) == 0 {
		return fmt.Errorf("no exchanges recorded in %s", strings.Join(files, ", "))
	}
	if err := check(v, all); err != nil {
		return fmt.Errorf("recorded exchanges that do not match api/openapi/openapi.json:\n%w", err)
	}
	fmt.Fprintf(out, "openapi: %d recorded exchanges match the document\n", len(all))
	return nil
}

func read(name string) ([]openapitest.Exchange, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var list []openapitest.Exchange
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 8<<20)
	for line := 1; sc.Scan(); line++ {
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		var e openapitest.Exchange
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		list = append(list, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return list, nil
}

// check reports the mismatches by documented operation and status: how
// often, and the first one in full (which names the exchange's own URL).
func check(v *openapitest.Validator, list []openapitest.Exchange) error {
	bad := map[string][]string{}
	for _, e := range list {
		if err := v.Check(e); err != nil {
			key := v.Operation(e) + " " + fmt.Sprint(e.Status)
			bad[key] = append(bad[key], err.Error())
		}
	}
	if len(bad) == 0 {
		return nil
	}
	keys := make([]string, 0, len(bad))
	for k := range bad {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s (%d of %d exchanges): %s\n", k, len(bad[k]), len(list), bad[k][0])
	}
	return errors.New(b.String())
}
