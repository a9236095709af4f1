package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"draindesign/domain/catalogue"
	"draindesign/domain/design"
)

// stdin is where `calc -` reads; tests replace it.
var stdin io.Reader = os.Stdin

const calcUsage = "usage: draindesign calc [--server URL [--token T]] [FILE|-]"

// calc reads the body of POST /api/drainage/calculate/ from a file or
// standard input and prints the answer the call gives, as indented JSON:
// calculated here through the same code, or with --server by that server,
// signed in with a personal API token (--token, or DRAINDESIGN_TOKEN so
// that the token stays out of the shell history and the process list).
func calc(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("calc", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	server := fs.String("server", "", "calculate on this draindesign server (https://drains.example.com)")
	token := fs.String("token", os.Getenv("DRAINDESIGN_TOKEN"), "personal API token for --server (default $DRAINDESIGN_TOKEN)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w\n%s", err, calcUsage)
	}
	args = fs.Args()
	if len(args) > 1 {
		return errors.New(calcUsage)
	}
	var body []byte
	var err error
	if len(args) == 0 || args[0] == "-" {
		body, err = io.ReadAll(stdin)
	} else {
		body, err = os.ReadFile(args[0])
	}
	if err != nil {
		return fmt.Errorf("calc: %w", err)
	}
	if *server != "" {
		return remoteCalc(ctx, *server, *token, body, out)
	}
	req, err := design.DecodeRequest(body)
	if err != nil {
		return err
	}
	ans, err := design.Calculate(catalogue.Default(), req)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(ans)
}

// remoteCalc posts the body to the server's calculation call and prints
// the answer as the local calculation does; a refusal comes back as an
// error with the server's own message.
func remoteCalc(ctx context.Context, server, token string, body []byte, out io.Writer) error {
	base, err := serverURL(server)
	if err != nil {
		return err
	}
	if token == "" {
		return errors.New("calc --server needs a personal API token: create one in the web application's settings (API tokens) and pass --token or set DRAINDESIGN_TOKEN")
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/api/drainage/calculate/", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("calc: %w", err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return fmt.Errorf("calc: reading the answer of %s: %w", base, err)
	}
	if resp.StatusCode != http.StatusOK {
		return remoteError(base, resp, answer)
	}
	// The server writes compact JSON; indented, it is byte for byte what
	// the local calculation prints.
	var indented bytes.Buffer
	if err := json.Indent(&indented, bytes.TrimSpace(answer), "", "  "); err != nil {
		return fmt.Errorf("calc: %s answered something that is not JSON: %w", base, err)
	}
	indented.WriteByte('\n')
	_, err = out.Write(indented.Bytes())
	return err
}

// remoteError words a refused calculation: the server's message, and for
// a refused token what to do about it.
func remoteError(base string, resp *http.Response, answer []byte) error {
	var e struct {
		Error string `json:"error"`
	}
	msg := strings.TrimSpace(string(answer))
	if json.Unmarshal(answer, &e) == nil && e.Error != "" {
		msg = e.Error
	}
	if len(msg) > 500 {
		msg = msg[:500] + "..."
	}
	switch resp.StatusCode {
	case http.StatusUnauthorized:
		return fmt.Errorf("calc: %s refused the API token (401 Unauthorized): %s", base, msg)
	case http.StatusForbidden:
		return fmt.Errorf("calc: %s does not allow this call with an API token (403 Forbidden): %s", base, msg)
	case http.StatusTooManyRequests:
		return fmt.Errorf("calc: %s asks to slow down (429, retry after %ss): %s", base, resp.Header.Get("Retry-After"), msg)
	}
	return fmt.Errorf("calc: %s answered %s: %s", base, resp.Status, msg)
}

// serverURL checks the --server address. A token is a password: it goes
// over https, or plain http only to this machine.
func serverURL(s string) (string, error) {
	u, err := url.Parse(strings.TrimRight(strings.TrimSpace(s), "/"))
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("calc: --server must be the server's address, such as https://drains.example.com; got %q", s)
	}
	if u.Scheme == "http" && !loopback(u.Hostname()) {
		return "", fmt.Errorf("calc: --server %s would send the API token unencrypted: use https", s)
	}
	return u.String(), nil
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
