// Package versions reads the rows of a stores' StreamVersions query, the
// same for every SQL driver.
package versions

// Rows is what pgx.Rows and *sql.Rows both have.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// Scan reads rows of (stream, version) into a map, expecting about n.
func Scan(rows Rows, n int) (map[string]int64, error) {
	out := make(map[string]int64, n)
	for rows.Next() {
		var stream string
		var v int64
		if err := rows.Scan(&stream, &v); err != nil {
			return nil, err
		}
		out[stream] = v
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
