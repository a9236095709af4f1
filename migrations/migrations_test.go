package migrations_test

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"draindesign/migrations"
)

func TestList(t *testing.T) {
	ms, err := migrations.List(fstest.MapFS{
		"d/0010_later.sql":   {Data: []byte("SELECT 10;")},
		"d/0002_second.sql":  {Data: []byte("SELECT 2;")},
		"d/0001_first.sql":   {Data: []byte("SELECT 1;")},
		"d/README.md":        {Data: []byte("not a migration")},
		"0003_elsewhere.sql": {Data: []byte("SELECT 3;")},
	}, "d")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, m.Name)
		if want := strings.TrimLeft(strings.SplitN(m.Name, "_", 2)[0], "0"); m.SQL != "SELECT "+want+";" {
			t.Errorf("%s holds %q", m.Name, m.SQL)
		}
	}
	if strings.Join(got, " ") != "0001_first.sql 0002_second.sql 0010_later.sql" {
		t.Errorf("order %v, want by number", got)
	}
}

func TestListRejects(t *testing.T) {
	for name, fsys := range map[string]fstest.MapFS{
		"no number":         {"events.sql": {}},
		"no underscore":     {"0001.sql": {}},
		"zero":              {"0000_zero.sql": {}},
		"number used twice": {"0001_a.sql": {}, "001_b.sql": {}},
	} {
		if _, err := migrations.List(fsys, "."); err == nil {
			t.Errorf("%s: List accepted %v", name, fsys)
		}
	}
}

func TestEmbedded(t *testing.T) {
	for dir, fsys := range map[string]fs.FS{"postgres": migrations.Postgres, "sqlite": migrations.SQLite} {
		ms, err := migrations.List(fsys, dir)
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		if len(ms) == 0 || ms[0].Name != "0001_events.sql" || !strings.Contains(ms[0].SQL, "CREATE TABLE events") {
			t.Errorf("%s: migrations %v do not start with the event store", dir, ms)
		}
	}
}
