package translations_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"draindesign/domain/translation"
	"draindesign/eventstore"
	"draindesign/projections"
	"draindesign/projections/internal/testkit"
	"draindesign/projections/translations"
)

// The overrides read model on every backend: what it holds after a series
// of changes and resets, its revisions, and a rebuild from the first event
// that gives the same rows and checkpoint.
func TestOverridesProjectAndRebuild(t *testing.T) {
	t.Parallel()
	for _, b := range testkit.Backends {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			store, database := b.New(t)
			db := database.Open(t)
			runner, err := projections.NewRunner(projections.Config{
				Store: store, DB: db, Projections: []projections.Projection{translations.Projection{}},
			})
			if err != nil {
				t.Fatal(err)
			}
			at := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
			n := 0
			appendTo := func(lang string, evs ...translation.Event) int64 {
				var out []eventstore.NewEvent
				for _, e := range evs {
					n++
					typ, schema, data, err := translation.Encode(e)
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, eventstore.NewEvent{ID: fmt.Sprintf("%s-%d", t.Name(), n), Type: typ, Schema: schema, Data: data,
						Metadata: eventstore.Metadata{Author: "u1", Time: at}})
				}
				res, err := store.Append(ctx, translation.Stream(lang), eventstore.Any, out...)
				if err != nil {
					t.Fatal(err)
				}
				return res.LastVersion
			}
			changed := func(lang, kind, key, old, text string, minute int) translation.TextChanged {
				return translation.TextChanged{Language: lang, Kind: kind, Key: key, Old: old, New: text, English: "en:" + key,
					By: "u1", ByName: "tina", At: at.Add(time.Duration(minute) * time.Minute)}
			}
			appendTo("de",
				changed("de", translation.KindMessage, "login.title", "Anmelden", "Einloggen", 1),
				changed("de", translation.KindMessage, "login.button", "Anmelden", "Los", 2),
				changed("de", translation.KindMessage, "login.title", "Einloggen", "Bitte anmelden", 3),
				translation.TextReset{Language: "de", Kind: translation.KindMessage, Key: "login.button", Old: "Los", At: at})
			appendTo("fr", changed("fr", translation.KindHelp, "about", "", "# À propos", 4))
			// An event of a type this build does not know moves the
			// revision and nothing else.
			if _, err := store.Append(ctx, translation.Stream("fr"), eventstore.Any, eventstore.NewEvent{
				ID: t.Name() + "-future", Type: "translation.text_reviewed", Schema: 1, Data: []byte(`{"language":"fr"}`)}); err != nil {
				t.Fatal(err)
			}
			// Other streams are none of its business.
			if _, err := store.Append(ctx, "project-x", eventstore.Any, eventstore.NewEvent{ID: t.Name() + "-p", Type: "project.created", Data: []byte(`{}`)}); err != nil {
				t.Fatal(err)
			}
			// WaitFor its position (WaitForStream would not wait for this
			// read model, which does not follow project streams).
			px, err := store.ReadStream(ctx, "project-x", 1, 1)
			if err != nil || len(px) != 1 {
				t.Fatalf("read project-x: %v %v", px, err)
			}
			if err := runner.WaitFor(ctx, px[0].Position); err != nil {
				t.Fatal(err)
			}

			de, err := translations.List(ctx, db, "de", translation.KindMessage)
			if err != nil {
				t.Fatal(err)
			}
			want := translations.Override{Language: "de", Kind: translation.KindMessage, Key: "login.title", Text: "Bitte anmelden",
				English: "en:login.title", By: "u1", ByName: "tina", At: at.Add(3 * time.Minute)}
			if len(de) != 1 || de[0] != want {
				t.Errorf("de overrides = %+v, want [%+v]", de, want)
			}
			help, err := translations.List(ctx, db, "", translation.KindHelp)
			if err != nil {
				t.Fatal(err)
			}
			if len(help) != 1 || help[0].Language != "fr" || help[0].Key != "about" || help[0].Text != "# À propos" {
				t.Errorf("help overrides = %+v", help)
			}
			if msgs, _ := translations.List(ctx, db, "fr", translation.KindMessage); len(msgs) != 0 {
				t.Errorf("fr messages = %+v, want none", msgs)
			}
			revs, err := translations.Revisions(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			if revs["de"] != 4 || revs["fr"] != 2 || len(revs) != 2 {
				t.Errorf("revisions = %v, want de 4, fr 2", revs)
			}

			live := map[string][]string{}
			for _, table := range (translations.Projection{}).Tables() {
				live[table] = testkit.Dump(t, db, table)
			}
			// A row no event explains: the rebuild must drop it.
			if _, err := db.Exec(ctx, `INSERT INTO translation_overrides (language, kind, text_key, text, english, changed_by, by_name, changed_at)
				VALUES ('nl', 'message', 'stray', 'x', 'x', 'x', 'x', 0)`); err != nil {
				t.Fatal(err)
			}
			if err := runner.Rebuild(ctx); err != nil {
				t.Fatalf("Rebuild: %v", err)
			}
			for table, rows := range live {
				if got := testkit.Dump(t, db, table); strings.Join(got, "\n") != strings.Join(rows, "\n") {
					t.Errorf("%s after rebuild:\n%s\nlive:\n%s", table, strings.Join(got, "\n"), strings.Join(rows, "\n"))
				}
			}
			var commit, seq uint64
			if err := db.QueryRow(ctx, `SELECT commit_pos, seq_pos FROM projection_checkpoints WHERE name = ?`, "translation_overrides").Scan(&commit, &seq); err != nil {
				t.Fatal(err)
			}
			if got := (eventstore.Position{Commit: commit, Seq: seq}); got != testkit.Head(t, store) {
				t.Errorf("checkpoint after rebuild %s, want the head %s", got, testkit.Head(t, store))
			}
		})
	}
}
