package account

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"draindesign/domain/fault"
)

func TestAPITokenLifecycle(t *testing.T) {
	t.Parallel()
	a := newAccount(t, "u-tok", GroupStandard, true)
	token, hash, err := NewAPIToken(a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if hash != HashAPIToken(token) || strings.Contains(hash, token) || len(hash) != 64 {
		t.Fatalf("hash %q of %q", hash, token)
	}
	if id, ok := APITokenUser(token); !ok || id != a.ID {
		t.Fatalf("APITokenUser(%q) = %q, %v", token, id, ok)
	}
	if a.CheckAPIToken(token) {
		t.Fatal("a token not yet created opens the API")
	}
	evs := mustApply(t, a)(a.CreateAPIToken("t1", "  laptop script ", hash, t0))
	created, ok := evs[0].(APITokenCreated)
	if len(evs) != 1 || !ok || created.Name != "laptop script" || created.Hash != hash {
		t.Fatalf("created %#v", evs)
	}
	if !a.CheckAPIToken(token) {
		t.Fatal("the created token does not open the API")
	}
	other, _, _ := NewAPIToken(a.ID)
	if a.CheckAPIToken(other) || a.CheckAPIToken(token+"x") || a.CheckAPIToken("") {
		t.Fatal("another token opens the API")
	}
	if got := a.LiveAPITokens(); len(got) != 1 || got[0].ID != "t1" || got[0].Name != "laptop script" || !got[0].Created.Equal(t0) {
		t.Fatalf("live tokens %+v", got)
	}

	mustApply(t, a)(a.RevokeAPIToken("t1", t0.Add(time.Hour)))
	if a.CheckAPIToken(token) {
		t.Fatal("a revoked token still opens the API")
	}
	if got := a.LiveAPITokens(); len(got) != 0 {
		t.Fatalf("live tokens after revoking: %+v", got)
	}
	if _, err := a.RevokeAPIToken("t1", t0); !errors.Is(err, ErrAPITokenNotFound) || fault.Of(err) != fault.NotFound {
		t.Errorf("revoking twice: %v", err)
	}
	if _, err := a.RevokeAPIToken("nope", t0); !errors.Is(err, ErrAPITokenNotFound) {
		t.Errorf("revoking an unknown token: %v", err)
	}
}

func TestAPITokenRules(t *testing.T) {
	t.Parallel()
	a := newAccount(t, "u-rules", GroupStandard, true)
	_, hash, _ := NewAPIToken(a.ID)
	for _, name := range []string{"", "   ", strings.Repeat("é", MaxAPITokenName+1)} {
		_, err := a.CreateAPIToken("t", name, hash, t0)
		var ve *ValidationError
		if !errors.As(err, &ve) || len(ve.Fields["name"]) != 1 {
			t.Errorf("name %q: %v", name, err)
		}
	}
	if _, err := a.CreateAPIToken("t", strings.Repeat("é", MaxAPITokenName), hash, t0); err != nil {
		t.Errorf("a name of %d characters: %v", MaxAPITokenName, err)
	}
	for i := range MaxAPITokens {
		mustApply(t, a)(a.CreateAPIToken("t"+strconv.Itoa(i), "n", hash, t0))
	}
	var ve *ValidationError
	if _, err := a.CreateAPIToken("more", "n", hash, t0); !errors.As(err, &ve) {
		t.Errorf("token %d: %v", MaxAPITokens+1, err)
	}
	mustApply(t, a)(a.RevokeAPIToken("t0", t0))
	if _, err := a.CreateAPIToken("more", "n", hash, t0); err != nil {
		t.Errorf("after revoking one: %v", err)
	}

	gone := newAccount(t, "u-gone", GroupStandard, true)
	mustApply(t, gone)(gone.Delete(Actor{ID: "boss", Group: GroupAdmin}, t0))
	if _, err := gone.CreateAPIToken("t", "n", hash, t0); !errors.Is(err, ErrDeleted) {
		t.Errorf("deleted account: %v", err)
	}
}

func TestAPITokenUserRejectsOtherText(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "ddt.", "ddt.u", "ddt.u.short", "xyz.u." + strings.Repeat("a", 43), "ddt.." + strings.Repeat("a", 43)} {
		if id, ok := APITokenUser(s); ok {
			t.Errorf("APITokenUser(%q) = %q", s, id)
		}
	}
}
