package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestCommands(t *testing.T) {
	t.Setenv("DATABASE_URL", "")
	dir := t.TempDir()
	tests := []struct {
		args    []string
		wantOut string
		wantErr string
	}{
		{nil, "Commands:", ""},
		{[]string{"frobnicate"}, "", `unknown command "frobnicate"`},
		{[]string{"users", "add", "--data-dir", dir, "--username", "mo", "--email", "mo@example.com", "--password", "a long password", "--group", "admin"}, "user mo created in group admin", ""},
		{[]string{"users", "add", "--data-dir", dir, "--username", "mo", "--email", "other@example.com", "--password", "a long password"}, "", "already exists"},
		{[]string{"users", "add", "--data-dir", dir, "--username", "x", "--email", "x@example.com", "--password", "p", "--group", "king"}, "", "group"},
		{[]string{"users", "add", "--data-dir", dir, "--username", "nina", "--email", "nina@example.com", "--password", "short"}, "", "password"},
		{[]string{"projections", "rebuild", "--data-dir", dir}, "read models rebuilt up to position", ""},
		{[]string{"projections"}, "", "usage"},
		{[]string{"migrate"}, "", "needs DATABASE_URL"},
	}
	for _, tc := range tests {
		var out bytes.Buffer
		err := run(context.Background(), tc.args, &out)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(tc.wantErr)) {
				t.Errorf("%v: error %v, want one containing %q", tc.args, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !strings.Contains(out.String(), tc.wantOut) {
			t.Errorf("%v: %v, output %q, want %q", tc.args, err, out.String(), tc.wantOut)
		}
	}
}
