package account

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestFromEvents(t *testing.T) {
	t.Parallel()
	if _, err := FromEvents(nil); !errors.Is(err, ErrNotFound) {
		t.Errorf("empty stream: %v", err)
	}
	if _, err := FromEvents([]Event{Blocked{UserID: "u"}}); !errors.Is(err, ErrInvalidEventFlow) {
		t.Errorf("stream not starting with registration: %v", err)
	}
	a, err := FromEvents(sampleEvents())
	if err != nil {
		t.Fatal(err)
	}
	if !a.Deleted || a.Blocked || a.Group != GroupAdvanced || a.Country != "BE" || a.Language != "de" ||
		a.RainfallUnits != "l/s/m2" || !a.DefaultAdvancedMode || a.City != "x" || !a.Confirmed ||
		a.PasswordHash != fakeHash("b") || a.Version != int64(len(sampleEvents())) {
		t.Errorf("state = %+v", a)
	}
	// pointer events apply like values
	r := sampleEvents()[0].(Registered)
	b, err := FromEvents([]Event{&r, &EmailConfirmed{UserID: "u"}})
	if err != nil || !b.Confirmed || b.Username != "anna" {
		t.Errorf("pointer events: %+v, %v", b, err)
	}
	// blanks in old events get today's defaults
	c, _ := FromEvents([]Event{Registered{UserID: "u", PasswordHash: fakeHash("a")}})
	if c.Language != "en" || c.RainfallUnits != "mm/h" || c.Group != GroupStandard {
		t.Errorf("defaults = %q %q %q", c.Language, c.RainfallUnits, c.Group)
	}
}

func TestCanLogIn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                        string
		confirmed, blocked, deleted bool
		want                        error
	}{
		{"confirmed", true, false, false, nil},
		{"unconfirmed", false, false, false, ErrNotConfirmed},
		{"blocked", true, true, false, ErrBlocked},
		{"blocked and unconfirmed", false, true, false, ErrBlocked},
		{"deleted", true, false, true, ErrDeleted},
		{"deleted and blocked", true, true, true, ErrDeleted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := &Account{ID: "u", Confirmed: tt.confirmed, Blocked: tt.blocked, Deleted: tt.deleted}
			if err := a.CanLogIn(); !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
				t.Errorf("CanLogIn() = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestConfirmEmailIsIdempotent(t *testing.T) {
	t.Parallel()
	a := newAccount(t, "u", GroupStandard, false)
	if err := a.CanLogIn(); !errors.Is(err, ErrNotConfirmed) {
		t.Fatalf("new account CanLogIn = %v", err)
	}
	if ev := mustApply(t, a)(a.ConfirmEmail(t0)); len(ev) != 1 {
		t.Fatalf("first confirm = %v", ev)
	}
	if ev := mustApply(t, a)(a.ConfirmEmail(t0)); len(ev) != 0 {
		t.Errorf("second confirm = %v, want no events", ev)
	}
	if err := a.CanLogIn(); err != nil {
		t.Errorf("confirmed account CanLogIn = %v", err)
	}
}

func TestDeletedAccountRejectsEveryCommand(t *testing.T) {
	t.Parallel()
	super := newAccount(t, "super", GroupSuperAdmin, true).Actor()
	a := newAccount(t, "u", GroupAdvanced, true)
	mustApply(t, a)(a.Delete(super, t0))
	lang := "de"
	commands := map[string]func() ([]Event, error){
		"confirm":         func() ([]Event, error) { return a.ConfirmEmail(t0) },
		"change password": func() ([]Event, error) { return a.ChangePassword(fakeHash("c"), t0) },
		"reset password":  func() ([]Event, error) { return a.ResetPassword(fakeHash("c"), t0) },
		"request reset":   func() ([]Event, error) { return a.RequestReset(t0) },
		"settings":        func() ([]Event, error) { return a.ChangeSettings(SettingsInput{Language: &lang}, t0) },
		"country":         func() ([]Event, error) { return a.ChangeCountry("BE", t0) },
		"block":           func() ([]Event, error) { return a.Block(super, t0) },
		"unblock":         func() ([]Event, error) { return a.Unblock(super, t0) },
		"group":           func() ([]Event, error) { return a.ChangeGroup(super, GroupStandard, t0) },
		"bad group":       func() ([]Event, error) { return a.ChangeGroup(super, "root", t0) },
		"delete":          func() ([]Event, error) { return a.Delete(super, t0) },
		"delete own":      func() ([]Event, error) { return a.DeleteOwn("correct horse", t0) },
	}
	for name, cmd := range commands {
		if ev, err := cmd(); !errors.Is(err, ErrDeleted) || ev != nil {
			t.Errorf("%s on a deleted account = %v, %v, want ErrDeleted", name, ev, err)
		}
	}
	if err := a.CanLogIn(); !errors.Is(err, ErrDeleted) {
		t.Errorf("deleted CanLogIn = %v", err)
	}
}

func TestResetFlow(t *testing.T) {
	t.Parallel()
	a := newAccount(t, "u", GroupStandard, false)
	mustApply(t, a)(a.RequestReset(t0))
	if _, err := a.RequestReset(t0.Add(30 * time.Second)); !errors.Is(err, ErrResetTooSoon) {
		t.Errorf("second request within a minute: %v, want ErrResetTooSoon", err)
	}
	mustApply(t, a)(a.RequestReset(t0.Add(ResetThrottle)))

	// completing a reset proves the address, so it also confirms it
	ev := mustApply(t, a)(a.ResetPassword(fakeHash("n"), t0))
	if len(ev) != 2 || ev[1].EventType() != TypeEmailConfirmed || !a.Confirmed || a.PasswordHash != fakeHash("n") {
		t.Errorf("ResetPassword events %v, state confirmed=%v", ev, a.Confirmed)
	}
	if ev := mustApply(t, a)(a.ResetPassword(fakeHash("m"), t0)); len(ev) != 1 {
		t.Errorf("reset on a confirmed account = %v, want one event", ev)
	}
	if _, err := a.ChangePassword("plain", t0); !errors.Is(err, ErrMalformedHash) {
		t.Errorf("ChangePassword with a non-hash = %v", err)
	}

	b := newAccount(t, "b", GroupStandard, true)
	b.Blocked = true
	if _, err := b.RequestReset(t0); !errors.Is(err, ErrBlocked) {
		t.Errorf("blocked account reset request = %v, want ErrBlocked", err)
	}
}

func TestChangeSettings(t *testing.T) {
	t.Parallel()
	s := func(v string) *string { return &v }
	yes := true
	tests := []struct {
		name    string
		group   Group
		in      SettingsInput
		wantErr map[string]string
		want    string // JSON of the event's changed fields, "" for no event
	}{
		{"nothing", GroupStandard, SettingsInput{}, nil, ""},
		{"same values", GroupStandard, SettingsInput{Language: s("en"), RainfallUnits: s("mm/h"), City: s(" Berlin ")}, nil, ""},
		{"language", GroupStandard, SettingsInput{Language: s("DE")}, nil, `"language":"de"`},
		{"units m2 with superscript", GroupStandard, SettingsInput{RainfallUnits: s("l/s/m²")}, nil, `"rainfall_units":"l/s/m2"`},
		{"units per hectare", GroupStandard, SettingsInput{RainfallUnits: s("l/(s*ha)")}, nil, `"rainfall_units":"l/(s*ha)"`},
		{"telephone cleared", GroupStandard, SettingsInput{Telephone: s("")}, nil, `"telephone":""`},
		{"address", GroupStandard, SettingsInput{Address: s("Ring 2"), Postcode: s("10117")}, nil, `"address":"Ring 2","postcode":"10117"`},
		{"company", GroupStandard, SettingsInput{Company: s("New GmbH")}, nil, `"company":"New GmbH"`},
		{"advanced default allowed", GroupAdvanced, SettingsInput{DefaultAdvancedMode: &yes}, nil, `"default_advanced_mode":true`},
		{"advanced default refused", GroupStandard, SettingsInput{DefaultAdvancedMode: &yes},
			map[string]string{"default_advanced_mode": MsgNoAdvancedMode}, ""},
		{"bad language", GroupStandard, SettingsInput{Language: s("sr")}, map[string]string{"language": MsgInvalidLanguage}, ""},
		{"bad units", GroupStandard, SettingsInput{RainfallUnits: s("in/h")}, map[string]string{"rainfall_units": MsgInvalidRainfallUnits}, ""},
		{"blank city", GroupStandard, SettingsInput{City: s(" "), Language: s("fr")}, map[string]string{"city": "Please enter a city"}, ""},
		{"blank company", GroupStandard, SettingsInput{Company: s("")}, map[string]string{"company": "Please enter a company"}, ""},
		{"bad telephone", GroupStandard, SettingsInput{Telephone: s("x")}, map[string]string{"telephone": MsgInvalidTelephone}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := newAccount(t, "u", tt.group, true)
			ev, err := a.ChangeSettings(tt.in, t0)
			if tt.wantErr != nil {
				var ve *ValidationError
				if !errors.As(err, &ve) || len(ve.Fields) != len(tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				for k, msg := range tt.wantErr {
					if len(ve.Fields[k]) != 1 || ve.Fields[k][0] != msg {
						t.Errorf("Fields[%s] = %q, want %q", k, ve.Fields[k], msg)
					}
				}
				if ev != nil {
					t.Errorf("events despite errors: %v", ev)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				if len(ev) != 0 {
					t.Errorf("events = %v, want none", ev)
				}
				return
			}
			if len(ev) != 1 {
				t.Fatalf("events = %v", ev)
			}
			_, _, data, _ := Encode(ev[0])
			want := `{"user_id":"u",` + tt.want + `,"at":"2026-03-02T09:00:00Z"}`
			if string(data) != want {
				t.Errorf("event = %s\nwant    %s", data, want)
			}
		})
	}
}

func TestChangeCountry(t *testing.T) {
	t.Parallel()
	std := newAccount(t, "std", GroupStandard, true)
	if _, err := std.ChangeCountry("BE", t0); !errors.Is(err, ErrForbidden) {
		t.Errorf("standard user changing country = %v, want ErrForbidden", err)
	}
	sup := newAccount(t, "sup", GroupSupport, true)
	var ve *ValidationError
	if _, err := sup.ChangeCountry("XX", t0); !errors.As(err, &ve) || ve.Fields["country"][0] != MsgInvalidCountry {
		t.Errorf("unknown country = %v", err)
	}
	if _, err := sup.ChangeCountry("", t0); !errors.As(err, &ve) || ve.Fields["country"][0] != "Please select a country" {
		t.Errorf("blank country = %v", err)
	}
	if ev := mustApply(t, sup)(sup.ChangeCountry("de", t0)); len(ev) != 0 {
		t.Errorf("same country = %v, want no events", ev)
	}
	mustApply(t, sup)(sup.ChangeCountry(" gb", t0))
	if v := sup.View(); v.Country != (CountryView{ISOCode: "GB", Name: "United Kingdom", Region: RegionUK}) {
		t.Errorf("country after change = %+v", v.Country)
	}
}

func TestStaffCommands(t *testing.T) {
	t.Parallel()
	super := newAccount(t, "super", GroupSuperAdmin, true)
	admin := newAccount(t, "admin", GroupAdmin, true)
	support := newAccount(t, "support", GroupSupport, true)

	type cmd func(target *Account, by Actor) ([]Event, error)
	block := func(a *Account, by Actor) ([]Event, error) { return a.Block(by, t0) }
	unblock := func(a *Account, by Actor) ([]Event, error) { return a.Unblock(by, t0) }
	del := func(a *Account, by Actor) ([]Event, error) { return a.Delete(by, t0) }
	group := func(to Group) cmd {
		return func(a *Account, by Actor) ([]Event, error) { return a.ChangeGroup(by, to, t0) }
	}

	tests := []struct {
		name    string
		by      *Account
		target  Group
		self    bool
		blocked bool
		do      cmd
		events  int
		wantErr error
	}{
		{"admin blocks user", admin, GroupStandard, false, false, block, 1, nil},
		{"admin blocks blocked user", admin, GroupStandard, false, true, block, 0, nil},
		{"admin unblocks user", admin, GroupStandard, false, true, unblock, 1, nil},
		{"admin unblocks unblocked user", admin, GroupStandard, false, false, unblock, 0, nil},
		{"admin blocks admin", admin, GroupAdmin, false, false, block, 0, ErrForbidden},
		{"admin blocks super", admin, GroupSuperAdmin, false, false, block, 0, ErrForbidden},
		{"super blocks admin", super, GroupAdmin, false, false, block, 1, nil},
		{"super blocks super", super, GroupSuperAdmin, false, false, block, 1, nil},
		{"super blocks self", super, GroupSuperAdmin, true, false, block, 0, ErrForbidden},
		{"support blocks user", support, GroupStandard, false, false, block, 0, ErrForbidden},
		{"admin deletes translator", admin, GroupTranslator, false, false, del, 1, nil},
		{"admin deletes admin", admin, GroupAdmin, false, false, del, 0, ErrForbidden},
		{"super deletes admin", super, GroupAdmin, false, false, del, 1, nil},
		{"admin deletes self", admin, GroupAdmin, true, false, del, 0, ErrForbidden},
		{"admin grants advanced", admin, GroupStandard, false, false, group(GroupAdvanced), 1, nil},
		{"admin grants admin", admin, GroupStandard, false, false, group(GroupAdmin), 0, ErrForbidden},
		{"admin grants super", admin, GroupSupport, false, false, group(GroupSuperAdmin), 0, ErrForbidden},
		{"admin demotes admin", admin, GroupAdmin, false, false, group(GroupStandard), 0, ErrForbidden},
		{"admin same group", admin, GroupMarketing, false, false, group(GroupMarketing), 0, nil},
		{"super grants admin", super, GroupStandard, false, false, group(GroupAdmin), 1, nil},
		{"super grants super", super, GroupAdmin, false, false, group(GroupSuperAdmin), 1, nil},
		{"super demotes self", super, GroupSuperAdmin, true, false, group(GroupStandard), 0, ErrForbidden},
		{"marketing grants", newAccount(t, "m", GroupMarketing, true), GroupStandard, false, false, group(GroupAdvanced), 0, ErrForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var target *Account
			if !tt.self {
				target = newAccount(t, "target", tt.target, true)
			} else {
				cp := *tt.by
				target = &cp
			}
			target.Blocked = tt.blocked
			ev, err := tt.do(target, tt.by.Actor())
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if len(ev) != tt.events {
				t.Fatalf("events = %v, want %d", ev, tt.events)
			}
			for _, e := range ev {
				if !strings.Contains(mustJSON(t, e), `"by":"`+tt.by.ID+`"`) {
					t.Errorf("event %s does not record the actor", mustJSON(t, e))
				}
				target.Apply(e)
			}
		})
	}

	// a block keeps the user out until lifted
	u := newAccount(t, "u", GroupStandard, true)
	mustApply(t, u)(u.Block(admin.Actor(), t0))
	if err := u.CanLogIn(); !errors.Is(err, ErrBlocked) {
		t.Errorf("blocked CanLogIn = %v", err)
	}
	mustApply(t, u)(u.Unblock(admin.Actor(), t0))
	if err := u.CanLogIn(); err != nil {
		t.Errorf("unblocked CanLogIn = %v", err)
	}
	var ve *ValidationError
	if _, err := u.ChangeGroup(super.Actor(), "root", t0); !errors.As(err, &ve) {
		t.Errorf("unknown group = %v, want a validation error", err)
	}
	if _, err := u.Block(Actor{}, t0); !errors.Is(err, ErrForbidden) {
		t.Errorf("block without actor = %v", err)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestView(t *testing.T) {
	t.Parallel()
	a := newAccount(t, "anna", GroupAdvanced, true)
	yes := true
	mustApply(t, a)(a.ChangeSettings(SettingsInput{DefaultAdvancedMode: &yes}, t0))
	got := mustJSON(t, a.View())
	want := `{"username":"anna","first_name":"Anna","last_name":"Meier","email":"anna@example.com",` +
		`"country":{"iso_code":"DE","name":"Germany","region":"EU"},"language":"en","rainfall_units":"mm/h",` +
		`"default_advanced_mode":true,"has_advanced_mode":true,"shared_projects":false,"is_translator":false,` +
		`"is_marketing":false,"is_admin":false,"zero_at_discharge":false,"company":"Meier Tiefbau",` +
		`"telephone":"+49 30 1234567","address":"Hauptstr. 1","city":"Berlin","postcode":"10115",` +
		`"can_change_country":false,"group":"advanced"}`
	if got != want {
		t.Errorf("View JSON\n got %s\nwant %s", got, want)
	}
	// demoted: the stored default no longer applies
	a.Apply(GroupChanged{UserID: a.ID, From: GroupAdvanced, To: GroupStandard})
	if v := a.View(); v.DefaultAdvancedMode || v.HasAdvancedMode {
		t.Errorf("demoted view = %+v", v)
	}
	sv := a.StaffView()
	if sv.FullName != "Anna Meier" || sv.GroupLabel != "Standard user" || sv.ID != "anna" || !sv.Confirmed {
		t.Errorf("StaffView = %+v", sv)
	}
}

// A user deletes their own account on their password only; erasure
// follows deletion, once.
func TestDeleteOwnAndErase(t *testing.T) {
	t.Parallel()
	hash, err := HashPassword("correct horse")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		password string
		deletes  bool
	}{
		{"right password", "correct horse", true},
		{"wrong password", "wrong horse", false},
		{"no password", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := newAccount(t, "u", GroupStandard, true)
			a.PasswordHash = hash
			if evs, err := a.Erase(t0); err == nil || evs != nil {
				t.Fatalf("erasing a live account = %v, %v", evs, err)
			}
			evs, err := a.DeleteOwn(tc.password, t0)
			if !tc.deletes {
				var v *ValidationError
				if !errors.As(err, &v) || evs != nil {
					t.Fatalf("DeleteOwn = %v, %v, want a password field error", evs, err)
				}
				return
			}
			if err != nil || len(evs) != 1 || evs[0].(Deleted).By != "u" {
				t.Fatalf("DeleteOwn = %v, %v", evs, err)
			}
			mustApply(t, a)(evs, err)
			if !errors.Is(a.CanLogIn(), ErrDeleted) {
				t.Fatalf("after DeleteOwn CanLogIn = %v", a.CanLogIn())
			}
			mustApply(t, a)(a.Erase(t0))
			if !a.Erased {
				t.Fatal("not erased")
			}
			if evs, err := a.Erase(t0); err != nil || evs != nil {
				t.Fatalf("erasing twice = %v, %v", evs, err)
			}
		})
	}
}
