package offer_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"draindesign/domain/availability"
	"draindesign/eventstore"
	"draindesign/projections"
	"draindesign/projections/internal/testkit"
	"draindesign/projections/offer"
)

var t0 = time.Date(2026, 4, 1, 8, 0, 0, 0, time.UTC)

func changes(t *testing.T, s eventstore.Store) {
	enc := testkit.Encode(t)
	ch := func(country, system, channel string, offered bool) testkit.Encoded {
		return enc(availability.Encode(availability.Changed{Country: country, System: system, Channel: channel, Offered: offered, By: "m", At: t0}))
	}
	testkit.AppendAt(t, s, availability.Stream("GB"), "m", t0, ch("GB", "steel", "", false), ch("GB", "super", "150", false))
	testkit.AppendAt(t, s, availability.Stream("GB"), "m", t0, ch("GB", "super", "200", false), ch("GB", "super", "150", true))
	testkit.AppendAt(t, s, availability.Stream("DE"), "m", t0, ch("DE", "poly-100", "", false))
	// An unknown type in an availability stream is skipped: it changes
	// nothing this code could show.
	testkit.AppendAt(t, s, availability.Stream("DE"), "m", t0, testkit.Encoded{Type: "availability.future", Schema: 1, Data: []byte(`{}`)})
	testkit.AppendAt(t, s, "project-x", "m", t0, testkit.Encoded{Type: "project.created", Schema: 1, Data: []byte(`{"project_id":"x"}`)})
}

func TestOffer(t *testing.T) {
	t.Parallel()
	for _, b := range testkit.Backends {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := testkit.RebuildMatchesLive(t, b, []projections.Projection{offer.Projection{}}, offer.Projection{},
				func(s eventstore.Store) { changes(t, s) })
			gb, err := offer.Of(ctx, db, "GB")
			if err != nil {
				t.Fatal(err)
			}
			want := offer.Withdrawn{Systems: map[string]bool{"steel": true}, Channels: map[string]map[string]bool{"super": {"200": true}}}
			if !reflect.DeepEqual(gb, want) {
				t.Errorf("GB: %+v, want %+v", gb, want)
			}
			for _, tc := range []struct {
				system, channel string
				want            bool
			}{{"steel", "", false}, {"steel", "100", false}, {"super", "", true}, {"super", "150", true}, {"super", "200", false}, {"poly-100", "", true}} {
				if got := gb.Offers(tc.system, tc.channel); got != tc.want {
					t.Errorf("GB offers %s %s = %v", tc.system, tc.channel, got)
				}
			}
			all, err := offer.All(ctx, db)
			if err != nil || len(all) != 2 || !all["DE"].Systems["poly-100"] {
				t.Errorf("All = %+v, %v", all, err)
			}
			for country, want := range map[string]int64{"GB": 4, "DE": 1, "FR": 0} {
				if got, err := offer.Stamp(ctx, db, country); got != want || err != nil {
					t.Errorf("Stamp(%s) = %d, %v; want %d", country, got, err, want)
				}
			}
		})
	}
}
