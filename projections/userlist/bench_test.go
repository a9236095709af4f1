package userlist_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"draindesign/domain/account"
	"draindesign/domain/project"
	"draindesign/eventstore"
	"draindesign/projections"
	"draindesign/projections/internal/testkit"
	"draindesign/projections/projectlist"
	"draindesign/projections/userlist"
)

// benchUsers is the size the staff list must stay fast at.
const benchUsers = 10_000

// seedUsers fills a read-model database with benchUsers accounts (one in
// twenty blocked, one in fifty deleted; surnames from a list of forty, so
// a surname search finds about 250) and two saved projects each.
func seedUsers(b *testing.B) *projections.DB {
	db, err := projections.OpenSQLite(filepath.Join(b.TempDir(), "readmodels.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	surnames := []string{"Smith", "Jones", "Taylor", "Brown", "Williams", "Wilson", "Johnson", "Davies", "Robinson", "Wright",
		"Thompson", "Evans", "Walker", "White", "Roberts", "Green", "Hall", "Wood", "Jackson", "Clarke",
		"Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Schulz", "Hoffmann",
		"Kowalski", "Nowak", "Horvat", "Novak", "Rossi", "Russo", "Dubois", "Martin", "Janssen", "de Vries"}
	countries := []string{"GB", "DE", "FR", "NL", "PL", "IT", "HR", "SI", "HU", "BG"}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var seq uint64
	ev := func(stream, typ string, schema int, data []byte) eventstore.Event {
		seq++
		return eventstore.Event{ID: fmt.Sprintf("e%d", seq), Stream: stream, Version: 1, Type: typ, Schema: schema, Data: data,
			Position: eventstore.Position{Commit: seq, Seq: seq}, Metadata: eventstore.Metadata{Time: at}}
	}
	enc := testkit.Encode(b)
	emit := func(yield func(eventstore.Event), stream string, e testkit.Encoded) {
		yield(ev(stream, e.Type, e.Schema, e.Data))
	}
	testkit.Seed(b, db, []projections.Projection{userlist.Projection{}, projectlist.Projection{}}, func(yield func(eventstore.Event)) {
		for i := range benchUsers {
			id := fmt.Sprintf("u%05d", i)
			stream := account.Stream(id)
			emit(yield, stream, enc(account.Encode(account.Registered{UserID: id, Username: fmt.Sprintf("user%05d", i),
				FirstName: fmt.Sprintf("First%d", i%300), LastName: surnames[i%len(surnames)],
				Email: fmt.Sprintf("user%05d@company%d.example", i, i%700), Company: fmt.Sprintf("Company %d", i%700),
				Country: countries[i%len(countries)], Group: account.GroupStandard, At: at})))
			if i%20 == 7 {
				emit(yield, stream, enc(account.Encode(account.Blocked{UserID: id, By: "admin", At: at})))
			}
			if i%50 == 11 {
				emit(yield, stream, enc(account.Encode(account.Deleted{UserID: id, By: "admin", At: at})))
			}
			for p := range 2 {
				pid := fmt.Sprintf("p%05d-%d", i, p)
				emit(yield, project.Stream(pid), enc(project.Encode(project.Created{ProjectID: pid, Owner: id, Country: "GB", At: at})))
				emit(yield, project.Stream(pid), enc(project.Encode(project.Saved{SaveID: pid, SavedBy: id, At: at})))
			}
		}
	})
	return db
}

// BenchmarkUserPage is one page of the staff user list over 10,000
// accounts: the target is under 100 ms (docs/performance.md).
func BenchmarkUserPage(b *testing.B) {
	db := seedUsers(b)
	ctx := context.Background()
	for _, bc := range []struct {
		name          string
		filter        userlist.Filter
		sort          string
		desc          bool
		offset, limit int
		min           int
	}{
		{name: "first-page", limit: 50, min: 50},
		{name: "last-page", offset: 9_750, limit: 50, min: 50},
		{name: "search-surname", filter: userlist.Filter{Search: "schmidt"}, limit: 50, min: 50},
		{name: "search-email-hide-blocked", filter: userlist.Filter{Search: "company42.example", HideBlocked: true}, limit: 50, min: 5},
		{name: "search-nothing", filter: userlist.Filter{Search: "zzzz"}, limit: 50},
		{name: "sort-company-desc", sort: "company", desc: true, offset: 5_000, limit: 100, min: 100},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				p, err := userlist.PageOf(ctx, db, bc.filter, bc.offset, bc.limit, bc.sort, bc.desc)
				if err != nil {
					b.Fatal(err)
				}
				if len(p.Rows) < bc.min {
					b.Fatalf("%d rows, want at least %d", len(p.Rows), bc.min)
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N), "ms/op")
		})
	}
}
