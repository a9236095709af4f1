package userlist

import (
	"context"
	"fmt"
	"strings"

	"draindesign/projections"
)

// Names gives the usernames of the accounts with the given ids, for lists
// that name who did something (a project's history); ids with no account
// are left out.
func Names(ctx context.Context, db *projections.DB, ids []string) (map[string]string, error) {
	out := map[string]string{}
	if len(ids) == 0 {
		return out, nil
	}
	marks := strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", ")
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := db.Query(ctx, `SELECT id, username FROM user_list WHERE id IN (`+marks+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("user names: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, name string
		if err := rows.Scan(&id, &name); err != nil {
			return nil, fmt.Errorf("user names: %w", err)
		}
		out[id] = name
	}
	return out, rows.Err()
}
