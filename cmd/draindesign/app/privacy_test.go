package app

import (
	"archive/zip"
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"draindesign/api/usecase"
	"draindesign/domain/account"
	"draindesign/eventstore"
	"draindesign/eventstore/postgres"
	"draindesign/eventstore/sqlite"
)

// person is an account whose personal data the test follows.
type person struct {
	username, first, last, email, password string
}

func (x person) registration() map[string]string {
	r := registration(x.username)
	r["firstName"], r["lastName"], r["email"] = x.first, x.last, x.email
	r["telephone"], r["address"] = "+44 113 496 0"+fmt.Sprint(len(x.last)), "7 "+x.last+" Lane"
	return r
}

// needles are the forms in which x's e-mail and name could sit in a
// database: as typed, case-folded, JSON-escaped, base64 and hex.
func (x person) needles() []string {
	var out []string
	for _, s := range []string{x.email, x.first, x.last, x.first + " " + x.last, x.username} {
		out = append(out, s, strings.ToLower(s))
		j, _ := json.Marshal(s)
		out = append(out, strings.Trim(string(j), `"`))
		ascii := strings.NewReplacer("@", `\u0040`, ".", `\u002e`).Replace(s)
		out = append(out, ascii)
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
			out = append(out, strings.TrimRight(enc.EncodeToString([]byte(s)), "="))
		}
		out = append(out, hex.EncodeToString([]byte(s)))
	}
	return out
}

// signUpAs registers x through the API, confirms and logs in.
func (p *product) signUpAs(t *testing.T, x person) *user {
	t.Helper()
	u := p.newUser(t)
	u.must(http.StatusCreated, "POST", "/api/drainage/register/", x.registration(), nil)
	link := mailedLink(t, p.opts.DataDir, x.email)
	resp, err := u.http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	u.must(http.StatusOK, "POST", "/api/auth/login/", map[string]string{"username": x.username, "password": x.password}, nil)
	return u
}

// rawStore opens the event store of opts without the privacy layer: what
// a build from before sealing wrote, and what a scan must look at.
func rawStore(t *testing.T, opts Options) eventstore.Store {
	t.Helper()
	var s eventstore.Store
	var err error
	if opts.DatabaseURL != "" {
		s, err = postgres.Open(context.Background(), opts.DatabaseURL)
	} else {
		s, err = sqlite.Open(context.Background(), filepath.Join(opts.DataDir, "events.db"))
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// addLegacyUser writes x's account the way builds before sealing did: every
// field in clear, reserved under streams named by the username and
// address themselves.
func addLegacyUser(t *testing.T, raw eventstore.Store, x person) string {
	t.Helper()
	in := account.RegisterInput{}
	b, _ := json.Marshal(x.registration())
	_ = json.Unmarshal(b, &in)
	a, err := usecase.NewAccounts(usecase.Config{Store: raw}, nil, nil).AddUser(context.Background(), usecase.Actor{}, in, account.GroupStandard)
	if err != nil {
		t.Fatal(err)
	}
	for _, stream := range []string{"username-" + account.UsernameKey(x.username), "email-" + account.EmailKey(x.email)} {
		data, _ := json.Marshal(map[string]string{"user_id": a.ID})
		if _, err := raw.Append(context.Background(), stream, eventstore.NoStream, eventstore.NewEvent{
			ID: usecase.NewID(), Type: "reservation.claimed", Data: data, Metadata: eventstore.Metadata{Author: a.ID}}); err != nil {
			t.Fatal(err)
		}
	}
	return a.ID
}

// scanDatabase reads every column of every row of every table of the
// product's databases (tables enumerated from the catalogue) and reports
// which needles it finds, with where.
func scanDatabase(t *testing.T, opts Options, needles []string) map[string]string {
	t.Helper()
	found := map[string]string{}
	look := func(where string, value []byte) {
		for _, n := range needles {
			if n != "" && bytes.Contains(value, []byte(n)) {
				if _, ok := found[n]; !ok {
					found[n] = where
				}
			}
		}
	}
	scanTables := func(db *sql.DB, tablesQuery, rowQuery string) int {
		var tables []string
		eachRow(t, db, tablesQuery, func(cols []string, vals []any) { tables = append(tables, fmt.Sprint(vals[0])) })
		for _, table := range tables {
			eachRow(t, db, fmt.Sprintf(rowQuery, table), func(cols []string, vals []any) {
				for i, v := range vals {
					var b []byte
					switch v := v.(type) {
					case []byte:
						b = v
					case string:
						b = []byte(v)
					default:
						b = []byte(fmt.Sprint(v))
					}
					look(table+"."+cols[i], b)
				}
			})
		}
		return len(tables)
	}
	if opts.DatabaseURL != "" {
		db, err := sql.Open("pgx", opts.DatabaseURL)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		// Each row as JSON text: bytea comes out as \x hex, which the hex
		// needles find.
		n := scanTables(db, `SELECT quote_ident(table_name) FROM information_schema.tables
			WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'`,
			`SELECT row_to_json(t)::text FROM %s AS t`)
		if n < 10 {
			t.Fatalf("only %d tables found in PostgreSQL", n)
		}
		return found
	}
	total := 0
	for _, file := range []string{"events.db", "readmodels.db"} {
		db, err := sql.Open("sqlite", "file:"+filepath.Join(opts.DataDir, file)+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		total += scanTables(db, `SELECT '"' || name || '"' FROM sqlite_master WHERE type = 'table'`, `SELECT * FROM %s`)
		db.Close()
	}
	if total < 10 {
		t.Fatalf("only %d tables found in SQLite", total)
	}
	// The files themselves, write-ahead logs included: erased data must
	// not linger in freed pages or old page images either.
	files, _ := filepath.Glob(filepath.Join(opts.DataDir, "*.db*"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		look("file "+filepath.Base(f), b)
	}
	return found
}

// eachRow calls fn with every row of query's answer.
func eachRow(t *testing.T, db *sql.DB, query string, fn func(cols []string, vals []any)) {
	t.Helper()
	rows, err := db.Query(query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		fn(cols, vals)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}

// unzip reads an export.
func unzip(t *testing.T, data []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("export is no ZIP: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name], _ = io.ReadAll(rc)
		rc.Close()
	}
	return out
}

func (u *user) getBytes(path string) (int, http.Header, []byte) {
	u.t.Helper()
	resp, err := u.http.Get(u.base + path)
	if err != nil {
		u.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}

// calcStats are the calculation statistics the provider keeps: every
// column of the calculation audit and history but the run name.
func calcStats(t *testing.T, p *product) []string {
	t.Helper()
	var out []string
	for _, q := range []string{
		`SELECT event_id, author, project_id, system, method, length_m, area_m2, intensity, discharge, outcome FROM calc_audit ORDER BY event_id`,
		`SELECT event_id, author, project_id, system, method, length_m, area_m2, rainfall, slope, outcome FROM calc_history ORDER BY event_id`,
	} {
		eachRow(t, p.DB.SQL, q, func(_ []string, vals []any) { out = append(out, fmt.Sprint(vals...)) })
	}
	return out
}

// A user downloads everything held about them; deleting the account then
// erases their e-mail and name from every table of the database (the event
// log included, by crypto-shredding, also for data written in clear before
// sealing existed), keeps the anonymised calculation statistics, leaves
// another user's data alone, and the read models rebuild from zero to what
// they were.
func TestExportAndErasure(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			opts := b.opts(t)
			p := start(t, opts)
			ctx := context.Background()
			alice := person{"zora", "Zoraida", "Quillfeather", "zora.quill@mailbox.example", "a long password"}
			lena := person{"lenny", "Leontyne", "Brackenridge", "l.bracken@oldmail.example", "a long password"}
			bob := person{"bobby", "Barnaby", "Thistlewood", "barnaby@other.example", "a long password"}

			za := p.signUpAs(t, alice)
			za.must(http.StatusOK, "PATCH", "/api/drainage/user_settings/", map[string]any{"telephone": "+44 20 7946 0999", "city": "Quillfeather Green"}, nil)
			var s saveAnswer
			za.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
				"details": map[string]any{"name": "Yard of Zoraida Quillfeather", "designer": alice.first + " " + alice.last,
					"email": alice.email, "location": "Leeds"},
				"notes": "Call " + alice.first, "runs": []any{calculatedRun("Run 1", 10, ""), calculatedRun("Run 2", 12, "")}}, "share": true}, &s)
			aliceProject := s.SaveID

			raw := rawStore(t, opts)
			lenaID := addLegacyUser(t, raw, lena)
			le := p.newUser(t)
			le.must(http.StatusOK, "POST", "/api/auth/login/", map[string]string{"username": lena.username, "password": lena.password}, nil)
			le.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
				"details": map[string]any{"name": "Depot", "designer": lena.first + " " + lena.last}, "runs": []any{calculatedRun("Run 1", 7, "")}}}, nil)

			bo := p.signUpAs(t, bob)
			bo.must(http.StatusOK, "POST", "/api/drainage/save/", map[string]any{"project": map[string]any{
				"details": map[string]any{"name": "Car park", "designer": bob.first + " " + bob.last, "email": bob.email},
				"runs":    []any{calculatedRun("Run 1", 20, "")}}}, &s)
			bobProject := s.SaveID

			// The new account's personal fields are sealed in the log from
			// the start: its e-mail is nowhere in clear.
			if err := p.Runner.CatchUp(ctx); err != nil {
				t.Fatal(err)
			}
			sealedScan := scanDatabase(t, opts, []string{alice.email, base64.RawStdEncoding.EncodeToString([]byte(alice.email))})
			for n, where := range sealedScan {
				if !strings.Contains(where, "user_list") && !strings.HasPrefix(where, "file ") {
					t.Errorf("before deletion, %q is in %s: the log should hold it sealed", n, where)
				}
			}

			// Export: account data with history, the project with runs and
			// results and history, and its PDF.
			status, hdr, body := za.getBytes("/api/account/export/")
			if status != http.StatusOK || hdr.Get("Content-Type") != "application/zip" {
				t.Fatalf("export: %d %s %s", status, hdr.Get("Content-Type"), body)
			}
			files := unzip(t, body)
			var acc usecase.ExportedAccount
			if err := json.Unmarshal(files["account.json"], &acc); err != nil {
				t.Fatalf("account.json: %v in %v", err, files)
			}
			if acc.Email != alice.email || acc.FirstName != alice.first || acc.LastName != alice.last ||
				acc.Telephone != "+44 20 7946 0999" || acc.City != "Quillfeather Green" || len(acc.History) < 3 {
				t.Fatalf("account.json: %+v", acc)
			}
			if bytes.Contains(files["account.json"], []byte("argon")) || bytes.Contains(files["account.json"], []byte("password_hash")) {
				t.Fatalf("account.json holds the password hash: %s", files["account.json"])
			}
			var proj usecase.ExportedProject
			if err := json.Unmarshal(files["projects/"+aliceProject+"/project.json"], &proj); err != nil {
				t.Fatalf("project.json: %v; files %v", err, keys(files))
			}
			if proj.Details.Name != "Yard of Zoraida Quillfeather" || proj.Notes != "Call "+alice.first || len(proj.Runs) != 2 ||
				proj.Runs[0]["results"] == nil || len(proj.History) == 0 || proj.Document == "" {
				t.Fatalf("project.json: %+v", proj)
			}
			if pdf := files["projects/"+aliceProject+"/"+proj.Document]; !bytes.HasPrefix(pdf, []byte("%PDF-")) {
				t.Fatalf("no PDF %s in export: %v", proj.Document, keys(files))
			}
			for name := range files {
				if strings.Contains(name, bobProject) {
					t.Fatalf("export holds another user's project: %s", name)
				}
			}

			statsBefore := calcStats(t, p)
			if len(statsBefore) < 8 {
				t.Fatalf("calculation statistics: %v", statsBefore)
			}

			// A wrong password deletes nothing; the right one deletes and
			// erases; the legacy account too.
			za.must(http.StatusBadRequest, "DELETE", "/api/account/", map[string]string{"password": "not it at all"}, nil)
			za.must(http.StatusOK, "DELETE", "/api/account/", map[string]string{"password": alice.password}, nil)
			za.must(http.StatusUnauthorized, "GET", "/api/auth/me/", nil, nil)
			le.must(http.StatusOK, "DELETE", "/api/account/", map[string]string{"password": lena.password}, nil)
			for _, x := range []person{alice, lena} {
				p.newUser(t).must(http.StatusUnauthorized, "POST", "/api/auth/login/", map[string]string{"username": x.username, "password": x.password}, nil)
			}
			if err := p.Runner.CatchUp(ctx); err != nil {
				t.Fatal(err)
			}

			var needles []string
			needles = append(needles, alice.needles()...)
			needles = append(needles, lena.needles()...)
			if found := scanDatabase(t, opts, needles); len(found) > 0 {
				t.Errorf("after erasure still found: %v", found)
			}
			// The scan finds what is there: the other user's data is.
			if found := scanDatabase(t, opts, []string{bob.email, bob.last}); len(found) != 2 {
				t.Errorf("the scan should find the other user's e-mail and name, found %v", found)
			}
			if after := calcStats(t, p); !reflect.DeepEqual(statsBefore, after) {
				t.Errorf("calculation statistics changed:\nbefore %v\nafter  %v", statsBefore, after)
			}
			// The erased legacy account's events hold no clear personal
			// field; the stream still reads, as "erased".
			evs, err := p.Store.ReadStream(ctx, account.Stream(lenaID), 1, 1)
			if err != nil || len(evs) != 1 || !strings.Contains(string(evs[0].Data), `"email":"erased"`) {
				t.Fatalf("legacy account after erasure: %v %v", evs, err)
			}

			// The other user: untouched, still signs in and exports.
			status, _, body = bo.getBytes("/api/account/export/")
			if status != http.StatusOK {
				t.Fatalf("bob's export: %d", status)
			}
			files = unzip(t, body)
			if err := json.Unmarshal(files["account.json"], &acc); err != nil || acc.Email != bob.email || acc.LastName != bob.last {
				t.Fatalf("bob's account.json: %+v %v", acc, err)
			}
			if err := json.Unmarshal(files["projects/"+bobProject+"/project.json"], &proj); err != nil || proj.Details.Email != bob.email {
				t.Fatalf("bob's project: %+v %v", proj, err)
			}
			// The name is free again.
			p.newUser(t).must(http.StatusCreated, "POST", "/api/drainage/register/", alice.registration(), nil)

			if err := waitCaughtUp(p, account.Stream(p.userID(t, alice.username))); err != nil {
				t.Fatal(err)
			}
			live := dump(t, p.DB)
			p.stop()
			assertRebuildEqualsLive(t, opts, live)
		})
	}
}

// waitCaughtUp waits until every read model has applied the last event of
// stream, the last one written, and all before it. A PostgreSQL log shows
// a committed event only once every transaction older than it has ended
// (docs/architecture.md), so catching up to the head the log shows at
// once could stop short of it.
func waitCaughtUp(p *product, stream string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	v, err := p.Store.StreamVersion(ctx, stream)
	if err != nil {
		return err
	}
	if err := p.Runner.WaitForStream(ctx, stream, v); err != nil {
		return err
	}
	return p.Runner.CatchUp(ctx)
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
