package app

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"draindesign/domain/account"
)

type calcRow struct {
	ID         string   `json:"id"`
	User       string   `json:"user"`
	Project    string   `json:"project"`
	Run        string   `json:"run"`
	System     string   `json:"system"`
	Outcome    string   `json:"outcome"`
	Message    string   `json:"message"`
	Intensity  string   `json:"intensity_mm_h"`
	Discharge  string   `json:"discharge_l_s"`
	DurationMS *float64 `json:"duration_ms"`
}

type calcPage struct {
	Rows  []calcRow `json:"rows"`
	Total int       `json:"total"`
}

// fetch GETs a file with the user's cookies: status, headers and body.
func (u *user) fetch(t *testing.T, path string) (int, http.Header, []byte) {
	t.Helper()
	resp, err := u.http.Get(u.base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, data
}

// The staff area over HTTP: the calculation history (filters, a page, the
// exact inputs of one, the CSV export), the staff home's counts, the user
// page with the actor's choices, the staff history, the map, and channel
// availability taking effect for a country's users at once (product
// lists, and a message on their live connection). Every read model then
// rebuilds from zero to the same rows.
func TestStaffArea(t *testing.T) {
	opts := Options{DataDir: t.TempDir()}
	p := start(t, opts)
	admin := p.staff(t, "ada", account.GroupAdmin)
	mia := p.staff(t, "mia", account.GroupMarketing)
	alice := p.signUpIn(t, "alice", "GB")
	carl := p.signUpIn(t, "carl", "GB")
	bob := p.signUpIn(t, "bob", "DE")
	// The example run is an in-situ concrete channel: advanced mode.
	for _, name := range []string{"alice", "bob"} {
		admin.must(http.StatusOK, "POST", "/api/staff/users/"+p.userID(t, name)+"/group/", map[string]string{"group": string(account.GroupAdvanced)}, nil)
	}

	// Alice: one calculation with rain from the UK map, one that cannot
	// be designed; Bob: one.
	var d draft
	alice.must(http.StatusCreated, "POST", "/api/projects/", map[string]any{}, &d)
	leeds := patch(t, exampleCalc, map[string]any{"project_id": d.ID, "run_id": d.RunID,
		"rainfall": map[string]any{"rainfall_mm_per_hr": 50, "town": "Leeds", "latlng": map[string]any{"lat": 53.8, "lng": -1.55}}})
	alice.must(http.StatusOK, "POST", "/api/drainage/calculate/", leeds, nil)
	fail := map[string]any{"project_id": d.ID, "run_id": d.RunID, "channel_group": "poly-100", "loading": "C250",
		"grating": "poly-100-slot-iron", "channel_length_m": 20, "drainage_area_m2": 200, "rainfall": map[string]any{"rainfall_mm_per_hr": 5000}}
	alice.must(http.StatusBadRequest, "POST", "/api/drainage/calculate/", fail, nil)
	var bd draft
	bob.must(http.StatusCreated, "POST", "/api/projects/", map[string]any{}, &bd)
	bob.must(http.StatusOK, "POST", "/api/drainage/calculate/", patch(t, exampleCalc, map[string]any{"project_id": bd.ID, "run_id": bd.RunID}), nil)

	t.Run("calculation history", func(t *testing.T) {
		var failed calcPage
		admin.must(http.StatusOK, "GET", "/api/staff/calculations/page/?user=ALICE&outcome=failed", nil, &failed)
		if failed.Total != 1 || len(failed.Rows) != 1 {
			t.Fatalf("alice's failures: %+v", failed)
		}
		f := failed.Rows[0]
		if f.User != "alice" || f.System != "poly-100" || f.Intensity != "5000" || f.Message != "No channel could be designed to fulfil the current parameters" ||
			f.DurationMS == nil || *f.DurationMS <= 0 || f.Discharge != "" {
			t.Errorf("the failed calculation: %+v", f)
		}
		var detail struct {
			Inputs  map[string]json.RawMessage `json:"inputs"`
			Results map[string]json.RawMessage `json:"results"`
			Error   string                     `json:"error"`
		}
		admin.must(http.StatusOK, "GET", "/api/staff/calculations/"+f.ID+"/", nil, &detail)
		if string(detail.Inputs["loading"]) != `"C250"` || detail.Error != f.Message || detail.Results != nil || detail.Inputs["project_id"] != nil {
			t.Errorf("its inputs and result: %+v", detail)
		}
		admin.must(http.StatusNotFound, "GET", "/api/staff/calculations/no-such-id/", nil, nil)

		var all calcPage
		admin.must(http.StatusOK, "GET", "/api/staff/calculations/page/?limit=2", nil, &all)
		if all.Total != 3 || len(all.Rows) != 2 || all.Rows[0].User != "bob" || all.Rows[0].Outcome != "calculated" || all.Rows[0].Discharge != "2" {
			t.Errorf("the newest two of all: %+v", all)
		}
		tomorrow := time.Now().UTC().Add(24 * time.Hour).Format(time.DateOnly)
		admin.must(http.StatusOK, "GET", "/api/staff/calculations/page/?from="+tomorrow, nil, &all)
		if all.Total != 0 {
			t.Errorf("from tomorrow: %+v", all)
		}
		admin.must(http.StatusBadRequest, "GET", "/api/staff/calculations/page/?outcome=great", nil, nil)
		admin.must(http.StatusBadRequest, "GET", "/api/staff/calculations/page/?from=yesterday", nil, nil)
		admin.must(http.StatusBadRequest, "GET", "/api/staff/calculations/page/?limit=100000", nil, nil)

		status, header, data := admin.fetch(t, "/api/staff/calculations/csv/?user=alice")
		if status != http.StatusOK || !strings.HasPrefix(header.Get("Content-Type"), "text/csv") ||
			!strings.Contains(header.Get("Content-Disposition"), `filename="calculations-`) {
			t.Fatalf("export: %d %v", status, header)
		}
		records, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff")))).ReadAll()
		if err != nil || len(records) != 3 {
			t.Fatalf("export of alice's: %q, %v", data, err)
		}
		if !slices.Equal(records[0], csvHeaderForTest) || records[1][10] != "failed" || records[2][10] != "calculated" ||
			records[2][1] != "alice" || records[2][8] != "50" {
			t.Errorf("export rows %q", records)
		}
		if status, _, _ := alice.fetch(t, "/api/staff/calculations/csv/"); status != http.StatusForbidden {
			t.Errorf("a designer's export: %d", status)
		}
	})

	t.Run("home, users and history", func(t *testing.T) {
		var sum map[string]int
		admin.must(http.StatusOK, "GET", "/api/staff/summary/", nil, &sum)
		if want := map[string]int{"users": 5, "projects": 0, "calculations_today": 3, "failures_today": 1}; !reflect.DeepEqual(sum, want) {
			t.Errorf("summary %v, want %v", sum, want)
		}
		var page struct {
			Rows []struct {
				ID, Username string
				Manageable   bool `json:"manageable"`
			} `json:"rows"`
			Total     int `json:"total"`
			Grantable []struct{ Code string }
		}
		admin.must(http.StatusOK, "GET", "/api/staff/users/page/?search=a&sort=username&limit=2", nil, &page)
		if page.Total != 5 || len(page.Rows) != 2 || page.Rows[0].Username != "ada" || page.Rows[0].Manageable ||
			page.Rows[1].Username != "alice" || !page.Rows[1].Manageable {
			t.Errorf("users page %+v", page)
		}
		var codes []string
		for _, g := range page.Grantable {
			codes = append(codes, g.Code)
		}
		if !slices.Equal(codes, []string{"standard", "advanced", "support", "translator", "marketing"}) {
			t.Errorf("an administrator may grant %v", codes)
		}
		aliceID := page.Rows[1].ID
		admin.must(http.StatusOK, "POST", "/api/staff/users/"+aliceID+"/block/", nil, nil)
		// Alice became an advanced user for the example run; now she goes back.
		admin.must(http.StatusOK, "POST", "/api/staff/users/"+aliceID+"/group/", map[string]string{"group": "standard"}, nil)
		var one struct {
			Username, Group string
			Blocked         bool
		}
		admin.must(http.StatusOK, "GET", "/api/staff/users/"+aliceID+"/", nil, &one)
		if one.Username != "alice" || !one.Blocked || one.Group != "standard" {
			t.Errorf("alice after the block: %+v", one)
		}
		admin.must(http.StatusOK, "GET", "/api/staff/users/page/?hide_blocked=1&search=alice", nil, &page)
		if page.Total != 0 {
			t.Errorf("hide blocked still lists %+v", page)
		}
		var history []struct {
			Actor, Action, Detail string
			TargetName            string `json:"target_name"`
		}
		admin.must(http.StatusOK, "GET", "/api/staff/history/", nil, &history)
		// Newest first, after the two group changes of the set-up.
		if len(history) != 4 || history[0].Action != "group_changed" || history[0].Detail != "advanced>standard" ||
			history[1].Action != "blocked" || history[1].Actor != "ada" || history[1].TargetName != "alice" ||
			history[3].Detail != "standard>advanced" || history[3].TargetName != "alice" {
			t.Errorf("staff history %+v", history)
		}
	})

	t.Run("map", func(t *testing.T) {
		var m struct {
			Countries []struct {
				Country         string
				Users, Projects int
			}
			Places []struct {
				Town           string
				Lat, Lng       float64
				Projects, Runs int
			}
		}
		admin.must(http.StatusOK, "GET", "/api/staff/map/", nil, &m)
		got := map[string][2]int{}
		for _, c := range m.Countries {
			got[c.Country] = [2]int{c.Users, c.Projects}
		}
		if want := map[string][2]int{"GB": {4, 1}, "DE": {1, 1}}; !reflect.DeepEqual(got, want) {
			t.Errorf("countries %v, want %v", got, want)
		}
		if len(m.Places) != 1 || m.Places[0].Town != "Leeds" || m.Places[0].Lat != 53.8 || m.Places[0].Lng != -1.55 || m.Places[0].Runs != 1 {
			t.Errorf("places %+v", m.Places)
		}
	})

	t.Run("channel availability", func(t *testing.T) {
		slugs := func(u *user) []string {
			var list []struct{ Slug string }
			u.must(http.StatusOK, "GET", "/api/drainage/product/", nil, &list)
			var out []string
			for _, s := range list {
				out = append(out, s.Slug)
			}
			return out
		}
		if !slices.Contains(slugs(carl), "poly-100") {
			t.Fatal("poly-100 is not offered to begin with")
		}
		live := p.dial(t, carl)

		var gb struct {
			Country string
			Systems []struct {
				Slug     string
				Offered  bool
				Channels []struct {
					Code    string
					Offered bool
				}
			}
		}
		mia.must(http.StatusOK, "POST", "/api/staff/availability/", map[string]any{"country": "GB", "system": "poly-100", "offered": false}, &gb)
		if gb.Country != "GB" || gb.Systems[0].Slug != "poly-100" || gb.Systems[0].Offered {
			t.Errorf("GB after withdrawing poly-100: %+v", gb)
		}
		if m := nextWithin(t, live, 10*time.Second); m.Type != "catalogue" {
			t.Errorf("carl's live connection got %+v, want a catalogue message", m)
		}
		if slices.Contains(slugs(carl), "poly-100") || !slices.Contains(slugs(bob), "poly-100") {
			t.Errorf("GB lists %v, DE %v", slugs(carl), slugs(bob))
		}

		// A channel type: super 150 in GB.
		channels := func(u *user) []string {
			var list []struct {
				SubProduct string `json:"sub_product"`
			}
			u.must(http.StatusOK, "GET", "/api/drainage/channel/?product=super&loading=D400", nil, &list)
			var out []string
			for _, c := range list {
				if !slices.Contains(out, c.SubProduct) {
					out = append(out, c.SubProduct)
				}
			}
			return out
		}
		admin.must(http.StatusOK, "POST", "/api/staff/availability/", map[string]any{"country": "GB", "system": "super", "channel": "150", "offered": false}, nil)
		if got := channels(carl); slices.Contains(got, "150") || !slices.Contains(got, "100") || !slices.Contains(channels(bob), "150") {
			t.Errorf("super's channel types: GB %v, DE %v", got, channels(bob))
		}
		var subs map[string][]string
		carl.must(http.StatusOK, "GET", "/api/drainage/channel/subproducts/?product=super&loading=D400", nil, &subs)
		if _, ok := subs["150"]; ok || subs["100"] == nil {
			t.Errorf("GB's super sub-products %v", subs)
		}

		// Standard mode no longer chooses a withdrawn channel type: poly-100
		// has only one, so in DE nothing can be designed with it until it
		// is offered again.
		standard := map[string]any{"channel_group": "poly-100", "loading": "C250", "grating": "poly-100-slot-iron",
			"channel_length_m": 20, "drainage_area_m2": 144, "rainfall": map[string]any{"rainfall_mm_per_hr": 50}}
		bob.must(http.StatusOK, "POST", "/api/drainage/calculate/", standard, nil)
		mia.must(http.StatusOK, "POST", "/api/staff/availability/", map[string]any{"country": "DE", "system": "poly-100", "channel": "100", "offered": false}, nil)
		var refused struct{ Error string }
		bob.must(http.StatusBadRequest, "POST", "/api/drainage/calculate/", standard, &refused)
		if !strings.Contains(refused.Error, "No channel could be designed") {
			t.Errorf("with poly-100's only channel type withdrawn: %q", refused.Error)
		}
		carl.must(http.StatusOK, "POST", "/api/drainage/calculate/", standard, nil) // GB still has it
		mia.must(http.StatusOK, "POST", "/api/staff/availability/", map[string]any{"country": "DE", "system": "poly-100", "channel": "100", "offered": true}, nil)
		bob.must(http.StatusOK, "POST", "/api/drainage/calculate/", standard, nil)

		mia.must(http.StatusBadRequest, "POST", "/api/staff/availability/", map[string]any{"country": "GB", "system": "big-bls", "offered": false}, nil)
		mia.must(http.StatusBadRequest, "POST", "/api/staff/availability/", map[string]any{"country": "GB", "system": "super", "channel": "999", "offered": false}, nil)
		carl.must(http.StatusForbidden, "POST", "/api/staff/availability/", map[string]any{"country": "GB", "system": "super", "offered": false}, nil)

		var history []struct{ Actor, Action, Target, Subject string }
		mia.must(http.StatusOK, "GET", "/api/staff/history/?kind=availability", nil, &history)
		if len(history) != 4 || history[0].Action != "offered" || history[0].Target != "DE" || history[2].Actor != "ada" ||
			history[2].Subject != "super/150" || history[3].Actor != "mia" ||
			history[3].Action != "withdrawn" || history[3].Target != "GB" || history[3].Subject != "poly-100" {
			t.Errorf("availability history %+v", history)
		}
		mia.must(http.StatusForbidden, "GET", "/api/staff/history/", nil, nil)

		var offers []struct {
			Country string
			Systems []struct{ Slug string }
		}
		mia.must(http.StatusOK, "GET", "/api/staff/availability/", nil, &offers)
		for _, o := range offers {
			if o.Country == "GB" && slices.ContainsFunc(o.Systems, func(s struct{ Slug string }) bool { return s.Slug == "big-bls" }) {
				t.Error("GB lists big-bls, which the catalogue never sells there")
			}
		}
	})

	// Every read model rebuilt from position 0 holds what it held live.
	if err := p.Runner.CatchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	live := dump(t, p.DB)
	for _, table := range []string{"calc_audit", "offer_withdrawn", "staff_log", "map_projects", "map_places"} {
		if len(live[table]) == 0 {
			t.Fatalf("%s is empty live", table)
		}
	}
	p.stop()
	assertRebuildEqualsLive(t, opts, live)
}

var csvHeaderForTest = []string{"time_utc", "user", "project", "run", "system", "method", "length_m", "area_m2",
	"intensity_mm_h", "discharge_l_s", "result", "message", "duration_ms"}
