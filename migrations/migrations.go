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

// Postgres holds the PostgreSQL migrations, as postgres/NNNN_name.sql.
//
//go:embed postgres/*.sql
var Postgres embed.FS

// SQLite holds the SQLite migrations, as sqlite/NNNN_name.sql.
//
//go:embed sqlite/*.sql
var SQLite embed.FS

// Migration is one SQL file.
type Migration struct {
	// Version is the file's number prefix; migrations apply in Version order
	// and are recorded by it.
	Version int
	// Name is the file name, e.g. "0001_events.sql".
	Name string
	SQL  string
}

// List returns the *.sql files in directory dir of fsys in Version order,
// e.g. List(migrations.Postgres, "postgres"). Every file must start with a
// number followed by '_' and numbers must be unique, so that two engineers
// adding a migration at once get an error rather than an arbitrary order.
func List(fsys fs.FS, dir string) ([]Migration, error) {
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("list migrations in %s: %w", dir, err)
	}
	names, err := fs.Glob(sub, "*.sql")
	if err != nil {
		return nil, fmt.Errorf("list migrations in %s: %w", dir, err)
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
		b, err := fs.ReadFile(sub, name)
		if err != nil {
			return nil, fmt.Errorf("read migration %s: %w", name, err)
		}
		ms = append(ms, Migration{Version: v, Name: name, SQL: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Version < ms[j].Version })
	return ms, nil
}
