package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"draindesign/api/usecase"
	"draindesign/cmd/draindesign/app"
	"draindesign/domain/account"
)

// `calc --server URL --token T` has the server calculate: a token made
// through the API gets the same answer, byte for byte, as the local
// calculation; once revoked, the server refuses it with 401 and the
// command says so.
func TestRemoteCalcWithAPIToken(t *testing.T) {
	srv := httptest.NewUnstartedServer(nil)
	a, err := app.Start(context.Background(), app.Options{
		DataDir: t.TempDir(), PublicURL: "http://" + srv.Listener.Addr().String(),
		Client: fstest.MapFS{"index.html": {Data: []byte("<!doctype html>")}},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	srv.Config = a.Server()
	srv.Start()
	t.Cleanup(func() { srv.Close(); _ = a.Close() })

	in := account.RegisterInput{Username: "ena", Password: "a long password", PasswordConfirmation: "a long password",
		FirstName: "Ena", LastName: "Engineer", Email: "ena@example.com", Company: "Drains Ltd", Country: "GB",
		Address: "1 High Street", City: "Leeds", Postcode: "LS1 1AA"}
	if _, err := usecase.NewAccounts(usecase.Config{Store: a.Store}, nil, nil).AddUser(context.Background(), usecase.Actor{}, in, account.GroupAdvanced); err != nil {
		t.Fatal(err)
	}
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	call := func(method, path string, body any, out any) int {
		t.Helper()
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, srv.URL+path, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		resp, err := browser.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if out != nil {
			if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
				t.Fatalf("%s %s: %v", method, path, err)
			}
		}
		return resp.StatusCode
	}
	if code := call("POST", "/api/auth/login/", map[string]string{"username": "ena", "password": "a long password"}, nil); code != http.StatusOK {
		t.Fatalf("login: %d", code)
	}
	var created struct{ ID, Token string }
	if code := call("POST", "/api/auth/tokens/", map[string]string{"name": "calc test"}, &created); code != http.StatusCreated {
		t.Fatalf("create token: %d", code)
	}

	var local bytes.Buffer
	stdin = strings.NewReader(exampleCalc)
	t.Cleanup(func() { stdin = os.Stdin })
	if err := run(context.Background(), []string{"calc"}, &local); err != nil {
		t.Fatal(err)
	}
	var remote bytes.Buffer
	stdin = strings.NewReader(exampleCalc)
	if err := run(context.Background(), []string{"calc", "--server", srv.URL + "/", "--token", created.Token}, &remote); err != nil {
		t.Fatalf("remote calc: %v", err)
	}
	if !bytes.Equal(remote.Bytes(), local.Bytes()) || !strings.Contains(local.String(), `"channel_discharge": 2`) {
		t.Errorf("remote answer\n%.400s\nlocal answer\n%.400s", remote.String(), local.String())
	}

	// The token may also come from the environment, out of the process list.
	t.Setenv("DRAINDESIGN_TOKEN", created.Token)
	remote.Reset()
	stdin = strings.NewReader(exampleCalc)
	if err := run(context.Background(), []string{"calc", "--server", srv.URL}, &remote); err != nil || !bytes.Equal(remote.Bytes(), local.Bytes()) {
		t.Errorf("token from DRAINDESIGN_TOKEN: %v", err)
	}
	t.Setenv("DRAINDESIGN_TOKEN", "")

	// The server's validation message comes through as the local one does.
	stdin = strings.NewReader(`{"advanced": true}`)
	if err := run(context.Background(), []string{"calc", "--server", srv.URL, "--token", created.Token}, io.Discard); err == nil ||
		!strings.Contains(err.Error(), "Please select a drainage system") || !strings.Contains(err.Error(), "400") {
		t.Errorf("bad input: %v", err)
	}

	if code := call("DELETE", "/api/auth/tokens/"+created.ID+"/", nil, nil); code != http.StatusOK {
		t.Fatalf("revoke: %d", code)
	}
	stdin = strings.NewReader(exampleCalc)
	remote.Reset()
	err = run(context.Background(), []string{"calc", "--server", srv.URL, "--token", created.Token}, &remote)
	if err == nil || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "refused the API token") ||
		!strings.Contains(err.Error(), "revoked") || remote.Len() != 0 {
		t.Errorf("revoked token: %v, printed %q", err, remote.String())
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"calc", "--server", srv.URL}, "needs a personal API token"},
		{[]string{"calc", "--server", "http://drains.example.com", "--token", "t"}, "unencrypted"},
		{[]string{"calc", "--server", "drains.example.com", "--token", "t"}, "must be the server's address"},
		{[]string{"calc", "--frobnicate"}, "usage"},
	} {
		stdin = strings.NewReader(exampleCalc)
		if err := run(context.Background(), tc.args, io.Discard); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.want)
		}
	}
}
