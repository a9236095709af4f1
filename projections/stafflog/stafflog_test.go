package stafflog_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"draindesign/domain/account"
	"draindesign/domain/availability"
	"draindesign/eventstore"
	"draindesign/projections"
	"draindesign/projections/internal/testkit"
	"draindesign/projections/stafflog"
	"draindesign/projections/userlist"
)

var t0 = time.Date(2026, 4, 1, 8, 0, 0, 0, time.UTC)

func actions(t *testing.T, s eventstore.Store) {
	enc := testkit.Encode(t)
	for _, r := range []account.Registered{
		{UserID: "boss", Username: "boss", Group: account.GroupAdmin, At: t0},
		{UserID: "u1", Username: "anna", Group: account.GroupStandard, At: t0},
	} {
		testkit.AppendAt(t, s, account.Stream(r.UserID), r.UserID, t0, enc(account.Encode(r)))
	}
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	testkit.AppendAt(t, s, account.Stream("u1"), "boss", at(1),
		enc(account.Encode(account.EmailConfirmed{UserID: "u1", At: at(1)})), // not a staff action
		enc(account.Encode(account.Blocked{UserID: "u1", By: "boss", At: at(1)})))
	testkit.AppendAt(t, s, account.Stream("u1"), "boss", at(2), enc(account.Encode(account.Unblocked{UserID: "u1", By: "boss", At: at(2)})))
	testkit.AppendAt(t, s, account.Stream("u1"), "boss", at(3),
		enc(account.Encode(account.GroupChanged{UserID: "u1", From: account.GroupStandard, To: account.GroupAdvanced, By: "boss", At: at(3)})))
	testkit.AppendAt(t, s, availability.Stream("GB"), "boss", at(4),
		enc(availability.Encode(availability.Changed{Country: "GB", System: "super", Channel: "150", By: "boss", At: at(4)})))
	testkit.AppendAt(t, s, availability.Stream("GB"), "boss", at(5),
		enc(availability.Encode(availability.Changed{Country: "GB", System: "super", Channel: "150", Offered: true, By: "boss", At: at(5)})))
	testkit.AppendAt(t, s, account.Stream("u1"), "boss", at(6), enc(account.Encode(account.Deleted{UserID: "u1", By: "boss", At: at(6)})))
}

func TestStaffLog(t *testing.T) {
	t.Parallel()
	for _, b := range testkit.Backends {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := testkit.RebuildMatchesLive(t, b, []projections.Projection{stafflog.Projection{}, userlist.Projection{}}, stafflog.Projection{},
				func(s eventstore.Store) { actions(t, s) })
			type line struct{ actor, action, target, subject, detail string }
			lines := func(es []stafflog.Entry) []line {
				out := []line{}
				for _, e := range es {
					target := e.Target
					if e.TargetName != "" {
						target = e.TargetName
					}
					out = append(out, line{e.Actor, e.Action, target, e.Subject, e.Detail})
				}
				return out
			}
			all := []line{
				{"boss", stafflog.Deleted, "anna", "", ""},
				{"boss", stafflog.Offered, "GB", "super/150", ""},
				{"boss", stafflog.Withdrawn, "GB", "super/150", ""},
				{"boss", stafflog.GroupChanged, "anna", "", "standard>advanced"},
				{"boss", stafflog.Unblocked, "anna", "", ""},
				{"boss", stafflog.Blocked, "anna", "", ""},
			}
			for _, tc := range []struct {
				kind          string
				offset, limit int
				want          []line
			}{
				{"", 0, 10, all},
				{"", 1, 2, all[1:3]},
				{stafflog.KindAvailability, 0, 10, all[1:3]},
				{stafflog.KindUsers, 0, 10, []line{all[0], all[3], all[4], all[5]}},
			} {
				got, err := stafflog.List(ctx, db, tc.kind, tc.offset, tc.limit)
				if err != nil || !reflect.DeepEqual(lines(got), tc.want) {
					t.Errorf("List(%q, %d, %d) = %+v, %v\nwant %+v", tc.kind, tc.offset, tc.limit, lines(got), err, tc.want)
				}
			}
		})
	}
}
