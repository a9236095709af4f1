// Package migrations carries the database schema inside the binaries. Each
// dialect has its own directory of numbered SQL files (0001_events.sql,
// 0002_….sql, …); a store applies every file it has not applied yet, in
// number order, and records it in a schema_migrations table.
package migrations

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

// Postgres holds the PostgreSQL migrations, at the root of the FS.
var Postgres = sub(postgresFS, "postgres")

// SQLite holds the SQLite migrations, at the root of the FS.
var SQLite = sub(sqliteFS, "sqlite")

//go:embed postgres/*.sql
var postgresFS embed.FS

//go:embed sqlite/*.sql
var sqliteFS embed.FS

func sub(fsys embed.FS, dir string) fs.FS {
	s, err := fs.Sub(fsys, dir)
	if err != nil {
		// fs.Sub fails only for an invalid path, which is a constant here.
		panic(err)
	}
	return s
}

// Migration is one SQL file.
type Migration struct {
	// Version is the file's number prefix; migrations apply in Version order
	// and are recorded by it.
	Version int
	// Name is the file name, e.g. "0001_events.sql".
	Name string
	SQL  string
}

// List returns the *.sql files at the root of fsys in Version order. Every
// file must start with a number followed by '_' and numbers must be unique,
// so that two engineers adding a migration at once get an error rather than
// an arbitrary order.
func List(fsys fs.FS) ([]Migration, error) {
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return nil, fmt.Errorf("list migrations: %w", err)
	}
	ms := make([]Migration, 0, len(names))
	seen := make(map[int]string, len(names))
	for _, name := range names {
		prefix, _, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(prefix)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name must start with a positive number and '_'", name)
		}
		if other, dup := seen[v]; dup {
			return nil, fmt.Errorf("migrations %s and %s share number %d", other, name, v)
		}
		seen[v] = name
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("read migration %s: %w", name, err)
		}
		ms = append(ms, Migration{Version: v, Name: name, SQL: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Version < ms[j].Version })
	return ms, nil
}
