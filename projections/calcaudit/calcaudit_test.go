package calcaudit_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"draindesign/domain/account"
	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/projections"
	"draindesign/projections/calcaudit"
	"draindesign/projections/internal/testkit"
	"draindesign/projections/projectlist"
	"draindesign/projections/timeline"
	"draindesign/projections/userlist"
)

var t0 = time.Date(2026, 4, 1, 8, 0, 0, 0, time.UTC)

func raw(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

func inputs(system string, length, area, rain float64) project.Inputs {
	return project.Inputs{"channel_group": raw(system), "calculation_method": raw("GVF"), "channel_length_m": raw(length),
		"drainage_area_m2": raw(area), "rainfall": raw(map[string]any{"rainfall_mm_per_hr": rain})}
}

// history writes two users' projects: anna's "Depot yard" calculated four
// times (plain, super-critical after a rename, failed, flooded) and ben's
// one calculation the next day.
func history(t *testing.T, store eventstore.Store) {
	enc := testkit.Encode(t)
	testkit.AppendAt(t, store, account.Stream("u-anna"), "u-anna", t0,
		enc(account.Encode(account.Registered{UserID: "u-anna", Username: "Anna", Country: "GB", Group: account.GroupStandard, At: t0})))
	testkit.AppendAt(t, store, account.Stream("u-ben"), "u-ben", t0,
		enc(account.Encode(account.Registered{UserID: "u-ben", Username: "ben", Country: "DE", Group: account.GroupStandard, At: t0})))
	testkit.AppendAt(t, store, project.Stream("a"), "u-anna", t0,
		enc(project.Encode(project.Created{ProjectID: "a", Owner: "u-anna", OwnerName: "Anna", Country: "GB", At: t0})),
		enc(project.Encode(project.DetailsChanged{Details: project.Details{Name: "Depot yard"}})),
		enc(project.Encode(project.RunAdded{RunID: "r1", Name: "Gate"})))
	testkit.AppendAt(t, store, project.Stream("a"), "u-anna", t0.Add(time.Minute),
		enc(project.Encode(project.RunCalculated{RunID: "r1", Inputs: inputs("poly-100", 20, 144, 50),
			Summary: project.Summary{"overflowed": raw(false), "flow": raw(2.0000001)}, DurationMS: 3.25})))
	testkit.AppendAt(t, store, project.Stream("a"), "u-anna", t0.Add(2*time.Minute),
		enc(project.Encode(project.RunRenamed{RunID: "r1", Name: "Gate lane"})),
		enc(project.Encode(project.RunCalculated{RunID: "r1", Inputs: inputs("poly-100", 30, 200, 75),
			Summary: project.Summary{"went_super_critical": raw(true), "flow": raw(4.16)}, DurationMS: 1.5})))
	testkit.AppendAt(t, store, project.Stream("a"), "u-anna", t0.Add(3*time.Minute),
		enc(project.Encode(project.CalculationFailed{RunID: "r1", Inputs: inputs("steel", 500, 90000, 300),
			Error: "No channel could be designed to fulfil the current parameters", DurationMS: 12})))
	testkit.AppendAt(t, store, project.Stream("a"), "u-anna", t0.Add(4*time.Minute),
		enc(project.Encode(project.RunCalculated{RunID: "r1", Inputs: inputs("poly-100", 60, 900, 75),
			Summary: project.Summary{"overflowed": raw(true), "went_super_critical": raw(true), "channel_discharge": raw(18.75)}})))
	testkit.AppendAt(t, store, project.Stream("b"), "u-ben", t0.Add(24*time.Hour),
		enc(project.Encode(project.Created{ProjectID: "b", Owner: "u-ben", OwnerName: "ben", Country: "DE", At: t0})),
		enc(project.Encode(project.RunAdded{RunID: "r2", Name: "Kerb"})),
		enc(project.Encode(project.RunCalculated{RunID: "r2", Inputs: inputs("concrete", 10, 50, 40),
			Summary: project.Summary{"flow": raw(0.56)}, DurationMS: 0.8})))
	// Not a project: ignored.
	testkit.AppendAt(t, store, "availability-GB", "u-anna", t0, enc("availability.changed", 1, []byte(`{}`), nil))
}

func projectionsUnderTest() []projections.Projection {
	return []projections.Projection{calcaudit.Projection{}, userlist.Projection{}, projectlist.Projection{}, timeline.New()}
}

func TestRebuildEqualsLiveAndQueries(t *testing.T) {
	t.Parallel()
	for _, b := range testkit.Backends {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := testkit.RebuildMatchesLive(t, b, projectionsUnderTest(), calcaudit.Projection{}, func(s eventstore.Store) { history(t, s) })

			type want struct {
				outcome, run, project, user, system, length, intensity, discharge, message string
				duration                                                                   *float64
			}
			ms := func(v float64) *float64 { return &v }
			all := []want{
				{calcaudit.Calculated, "Kerb", "", "ben", "concrete", "10", "40", "0.56", "", ms(0.8)},
				{calcaudit.Flooded, "Gate lane", "Depot yard", "Anna", "poly-100", "60", "75", "18.75", "", nil},
				{calcaudit.Failed, "Gate lane", "Depot yard", "Anna", "steel", "500", "300", "", "No channel could be designed to fulfil the current parameters", ms(12)},
				{calcaudit.SuperCritical, "Gate lane", "Depot yard", "Anna", "poly-100", "30", "75", "4.16", "", ms(1.5)},
				{calcaudit.Calculated, "Gate", "Depot yard", "Anna", "poly-100", "20", "50", "2", "", ms(3.25)},
			}
			got := func(rows []calcaudit.Row) []want {
				out := []want{}
				for _, r := range rows {
					out = append(out, want{r.Outcome, r.RunName, r.ProjectName, r.Username, r.System, r.LengthM, r.Intensity, r.Discharge, r.Message, r.DurationMS})
				}
				return out
			}
			for _, tc := range []struct {
				name          string
				filter        calcaudit.Filter
				offset, limit int
				total         int
				rows          []want
			}{
				{name: "everything, newest first", limit: 50, total: 5, rows: all},
				{name: "a page", offset: 1, limit: 2, total: 5, rows: all[1:3]},
				{name: "past the end", offset: 5, limit: 2, total: 5, rows: []want{}},
				{name: "a user by name, any case", filter: calcaudit.Filter{User: "ANNA"}, limit: 50, total: 4, rows: all[1:]},
				{name: "a user by id", filter: calcaudit.Filter{User: "u-ben"}, limit: 50, total: 1, rows: all[:1]},
				{name: "one user's failures", filter: calcaudit.Filter{User: "anna", Outcome: calcaudit.Failed}, limit: 50, total: 1, rows: all[2:3]},
				{name: "a project by part of its name", filter: calcaudit.Filter{Project: "pot Y"}, limit: 50, total: 4, rows: all[1:]},
				{name: "a project by id", filter: calcaudit.Filter{Project: "b"}, limit: 50, total: 1, rows: all[:1]},
				{name: "a LIKE wildcard matches itself only", filter: calcaudit.Filter{Project: "%"}, limit: 50, total: 0, rows: []want{}},
				{name: "a system", filter: calcaudit.Filter{System: "poly-100"}, limit: 50, total: 3, rows: []want{all[1], all[3], all[4]}},
				{name: "flooded", filter: calcaudit.Filter{Outcome: calcaudit.Flooded}, limit: 50, total: 1, rows: all[1:2]},
				{name: "a time range, start included, end not", filter: calcaudit.Filter{From: t0.Add(2 * time.Minute), To: t0.Add(4 * time.Minute)},
					limit: 50, total: 2, rows: all[2:4]},
				{name: "the next day", filter: calcaudit.Filter{From: t0.Add(24 * time.Hour)}, limit: 50, total: 1, rows: all[:1]},
				{name: "nobody", filter: calcaudit.Filter{User: "carl"}, limit: 50, total: 0, rows: []want{}},
			} {
				page, err := calcaudit.List(ctx, db, tc.filter, tc.offset, tc.limit, false)
				if err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				if page.Total != tc.total || !reflect.DeepEqual(got(page.Rows), tc.rows) {
					t.Errorf("%s: total %d, rows\n%+v\nwant total %d, rows\n%+v", tc.name, page.Total, got(page.Rows), tc.total, tc.rows)
				}
			}

			asc, err := calcaudit.List(ctx, db, calcaudit.Filter{}, 0, 1, true)
			if err != nil || len(asc.Rows) != 1 || asc.Rows[0].RunName != "Gate" || !asc.Rows[0].At.Equal(t0.Add(time.Minute)) {
				t.Errorf("oldest first: %+v, %v", asc.Rows, err)
			}

			var exported []want
			if err := calcaudit.Each(ctx, db, calcaudit.Filter{User: "anna"}, 2, func(r calcaudit.Row) error {
				exported = append(exported, got([]calcaudit.Row{r})...)
				return nil
			}); err != nil || !reflect.DeepEqual(exported, all[1:3]) {
				t.Errorf("Each with a cap of 2: %+v, %v", exported, err)
			}

			// The failed one, exactly as calculated.
			failed, _ := calcaudit.List(ctx, db, calcaudit.Filter{Outcome: calcaudit.Failed}, 0, 1, false)
			d, ok, err := calcaudit.DetailOf(ctx, db, failed.Rows[0].ID)
			if err != nil || !ok {
				t.Fatalf("DetailOf: %v %v", ok, err)
			}
			if !reflect.DeepEqual(d.Inputs, inputs("steel", 500, 90000, 300)) || d.Error != failed.Rows[0].Message || d.Results != nil {
				t.Errorf("detail of the failure: %+v", d)
			}
			super, _ := calcaudit.List(ctx, db, calcaudit.Filter{Outcome: calcaudit.SuperCritical}, 0, 1, false)
			d, _, _ = calcaudit.DetailOf(ctx, db, super.Rows[0].ID)
			if string(d.Results["flow"]) != "4.16" || string(d.Inputs["channel_length_m"]) != "30" {
				t.Errorf("detail of the super-critical one: %+v", d)
			}
			if _, ok, err := calcaudit.DetailOf(ctx, db, "no-such-event"); ok || err != nil {
				t.Errorf("DetailOf(missing) = %v, %v", ok, err)
			}

			c, err := calcaudit.CountSince(ctx, db, t0.Add(2*time.Minute))
			if err != nil || c != (calcaudit.Counts{Calculations: 4, Failures: 1}) {
				t.Errorf("CountSince = %+v, %v", c, err)
			}
			systems, err := calcaudit.Systems(ctx, db)
			if err != nil || !reflect.DeepEqual(systems, []string{"concrete", "poly-100", "steel"}) {
				t.Errorf("Systems = %v, %v", systems, err)
			}
		})
	}
}
