package app

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/jackc/pgx/v5"

	"draindesign/eventstore"
	"draindesign/projections"
)

// The files of a data directory a backup holds. The mail folder is left
// out: it is only the development outbox used when no SMTP_URL is set.
const (
	eventsFile     = "events.db"
	readModelsFile = "readmodels.db"
	secretFile     = "secret.key"
	webLinksFile   = "weblinks.json"
	// dumpFile is the PostgreSQL database in pg_dump's custom format.
	dumpFile = "draindesign.dump"
)

// ErrPostgresBackup is returned by Backup and Restore on PostgreSQL when
// pg_dump or pg_restore is not on PATH: the operator then runs them by hand.
var ErrPostgresBackup = errors.New(`the PostgreSQL store is backed up with PostgreSQL's own tools (pg_dump and pg_restore, of the server's major version), which draindesign backup runs when they are on PATH; by hand:
  pg_dump --format=custom --file=draindesign.dump "$DATABASE_URL"
restore it into an empty database with
  pg_restore --no-owner --dbname="$DATABASE_URL" draindesign.dump
  draindesign projections rebuild
and keep a copy of the secret key file (SECRET_KEY_FILE) with the dump: it is not in the database (see docs/operations.md)`)

// BackupResult says what a backup or restore wrote.
type BackupResult struct {
	// Files are the names written, relative to the backup or data directory.
	Files []string
	// Notes are what the operator must still do by hand.
	Notes []string
	// Position is the head of the restored log (Restore only).
	Position eventstore.Position
}

// Backup copies the embedded store of o into the new directory to, safely
// while a server runs on it: each database is copied by SQLite's VACUUM
// INTO, a consistent snapshot taken in one read transaction, and the secret
// key and the web-links file are copied as they are.
//
// On PostgreSQL (DATABASE_URL) the database is written by pg_dump, in its
// custom format, into to/draindesign.dump: one consistent snapshot of the
// log, the read models and the sessions, taken while the server runs.
func Backup(ctx context.Context, o Options, to string) (BackupResult, error) {
	var res BackupResult
	if o.DatabaseURL != "" {
		return backupPostgres(ctx, o, to)
	}
	if _, err := os.Stat(filepath.Join(o.DataDir, eventsFile)); err != nil {
		return res, fmt.Errorf("backup: no store in %s: %w", o.DataDir, err)
	}
	if err := emptyDir(to); err != nil {
		return res, fmt.Errorf("backup: %w", err)
	}
	// Read models first, then the log: the snapshot of the read models is
	// then never ahead of the snapshot of the log. Read models ahead of the
	// log would carry checkpoints past its head, and a restored server would
	// skip the events that later take those positions.
	for _, name := range []string{readModelsFile, eventsFile} {
		if err := vacuumInto(ctx, filepath.Join(o.DataDir, name), filepath.Join(to, name)); err != nil {
			return res, fmt.Errorf("backup %s: %w", name, err)
		}
		res.Files = append(res.Files, name)
	}
	return backupFiles(o, to, res)
}

// backupFiles copies the secret key and the web-links file, which live
// beside the store whichever database holds it.
func backupFiles(o Options, to string, res BackupResult) (BackupResult, error) {
	copied, err := copyIfExists(secretKeyPath(o), filepath.Join(to, secretFile))
	if err != nil {
		return res, fmt.Errorf("backup secret key: %w", err)
	}
	if copied {
		res.Files = append(res.Files, secretFile)
	} else {
		res.Notes = append(res.Notes, fmt.Sprintf("no secret key at %s: a restored server makes a new one, and links mailed before the backup stop working", secretKeyPath(o)))
	}
	if copied, err = copyIfExists(filepath.Join(o.DataDir, webLinksFile), filepath.Join(to, webLinksFile)); err != nil {
		return res, fmt.Errorf("backup web links: %w", err)
	} else if copied {
		res.Files = append(res.Files, webLinksFile)
	}
	return res, nil
}

// backupPostgres runs pg_dump. Its snapshot is one repeatable-read
// transaction, so the read models in it are never ahead of the log.
func backupPostgres(ctx context.Context, o Options, to string) (BackupResult, error) {
	var res BackupResult
	if o.KurrentDBURL != "" {
		return res, errKurrentBackup
	}
	pgDump, err := exec.LookPath("pg_dump")
	if err != nil {
		return res, fmt.Errorf("backup: pg_dump not found (%w); %w", err, ErrPostgresBackup)
	}
	if err := emptyDir(to); err != nil {
		return res, fmt.Errorf("backup: %w", err)
	}
	out := filepath.Join(to, dumpFile)
	if err := runPG(ctx, pgDump, o.DatabaseURL, "--format=custom", "--no-owner", "--no-privileges", "--file="+out); err != nil {
		return res, fmt.Errorf("backup: %w", err)
	}
	// The dump holds every row of the store, personal data included.
	if err := os.Chmod(out, 0o600); err != nil {
		return res, fmt.Errorf("backup: %w", err)
	}
	res.Files = append(res.Files, dumpFile)
	return backupFiles(o, to, res)
}

// errKurrentBackup: with KURRENTDB_URL the log is not in PostgreSQL, so a
// dump of it would hold read models without their log.
var errKurrentBackup = errors.New("the event log is in KurrentDB (KURRENTDB_URL), which draindesign backup does not copy: back it up with KurrentDB's own tools; the read models are rebuilt from it with draindesign projections rebuild")

// runPG runs pg_dump or pg_restore on the database of databaseURL. A
// password in a postgres:// URL is handed over in PGPASSWORD rather than on
// the command line, where other users of the machine could read it.
func runPG(ctx context.Context, tool, databaseURL string, args ...string) error {
	dsn, password := splitPassword(databaseURL)
	cmd := exec.CommandContext(ctx, tool, append(args, "--dbname="+dsn)...)
	cmd.Env = os.Environ()
	if password != "" {
		cmd.Env = append(cmd.Env, "PGPASSWORD="+password)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w: %s", filepath.Base(tool), err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// splitPassword takes the password out of a postgres:// URL, and the
// pgx pool settings (pool_max_conns and the like), which libpq's tools
// refuse as unknown parameters. Keyword/value strings pass unchanged.
func splitPassword(databaseURL string) (dsn, password string) {
	u, err := url.Parse(databaseURL)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return databaseURL, ""
	}
	if u.User != nil {
		var set bool
		if password, set = u.User.Password(); set {
			u.User = url.User(u.User.Username())
		}
	}
	if q := u.Query(); len(q) > 0 {
		for k := range q {
			if strings.HasPrefix(k, "pool_") {
				q.Del(k)
			}
		}
		u.RawQuery = q.Encode()
	}
	return u.String(), password
}

// Restore puts the backup in from into the data directory of o, which
// must hold no store yet, checks both databases and rebuilds the read
// models from the restored log (they are derived from it; the sessions
// kept beside them survive).
func Restore(ctx context.Context, o Options, from string) (BackupResult, error) {
	var res BackupResult
	if o.DatabaseURL != "" {
		return restorePostgres(ctx, o, from)
	}
	for _, name := range []string{eventsFile, readModelsFile} {
		if _, err := os.Stat(filepath.Join(from, name)); err != nil {
			return res, fmt.Errorf("restore: %s is not a draindesign backup: %w", from, err)
		}
	}
	for _, name := range []string{eventsFile, readModelsFile} {
		if _, err := os.Stat(filepath.Join(o.DataDir, name)); err == nil {
			return res, fmt.Errorf("restore: %s already holds a store (%s); restore into an empty directory, or move it aside first", o.DataDir, name)
		}
	}
	if err := os.MkdirAll(o.DataDir, 0o750); err != nil {
		return res, fmt.Errorf("restore: %w", err)
	}
	for _, name := range []string{eventsFile, readModelsFile, webLinksFile} {
		copied, err := copyIfExists(filepath.Join(from, name), filepath.Join(o.DataDir, name))
		if err != nil {
			return res, fmt.Errorf("restore %s: %w", name, err)
		}
		if copied {
			res.Files = append(res.Files, name)
		}
	}
	res, err := restoreKey(o, from, res)
	if err != nil {
		return res, err
	}
	for _, name := range []string{eventsFile, readModelsFile} {
		if err := integrityCheck(ctx, filepath.Join(o.DataDir, name)); err != nil {
			return res, fmt.Errorf("restore %s: %w", name, err)
		}
	}
	return rebuildRestored(ctx, o, res)
}

// restoreKey puts the backup's secret key where the server reads it, or
// says where to copy it when SECRET_KEY_FILE names a place of its own.
func restoreKey(o Options, from string, res BackupResult) (BackupResult, error) {
	key := filepath.Join(from, secretFile)
	switch _, err := os.Stat(key); {
	case err != nil:
		res.Notes = append(res.Notes, "the backup holds no secret key: the server makes a new one, and links mailed before the backup stop working")
	case o.SecretKeyFile != "":
		// The deployment keeps its key elsewhere (a mounted secret, say):
		// writing there is the operator's call, not ours.
		res.Notes = append(res.Notes, fmt.Sprintf("SECRET_KEY_FILE is set: copy %s to %s", key, o.SecretKeyFile))
	default:
		if _, err := copyIfExists(key, filepath.Join(o.DataDir, secretFile)); err != nil {
			return res, fmt.Errorf("restore secret key: %w", err)
		}
		res.Files = append(res.Files, secretFile)
	}
	return res, nil
}

// rebuildRestored rebuilds every read model from the restored log, as
// draindesign projections rebuild does.
func rebuildRestored(ctx context.Context, o Options, res BackupResult) (BackupResult, error) {
	store, db, err := OpenStores(ctx, o)
	if err != nil {
		return res, err
	}
	defer store.Close()
	defer db.Close()
	runner, err := projections.NewRunner(projections.Config{Store: store, DB: db, Projections: Projections()})
	if err != nil {
		return res, err
	}
	if err := runner.Rebuild(ctx); err != nil {
		return res, err
	}
	if res.Position, err = runner.Position(ctx); err != nil {
		return res, err
	}
	return res, nil
}

// restorePostgres runs pg_restore into the database of DATABASE_URL,
// which must be empty (created anew, say with createdb), then restores the
// key and web links into the data directory and rebuilds the read models.
func restorePostgres(ctx context.Context, o Options, from string) (BackupResult, error) {
	var res BackupResult
	if o.KurrentDBURL != "" {
		return res, errKurrentBackup
	}
	dump := filepath.Join(from, dumpFile)
	if _, err := os.Stat(dump); err != nil {
		return res, fmt.Errorf("restore: %s is not a draindesign backup of PostgreSQL: %w", from, err)
	}
	pgRestore, err := exec.LookPath("pg_restore")
	if err != nil {
		return res, fmt.Errorf("restore: pg_restore not found (%w); %w", err, ErrPostgresBackup)
	}
	if err := emptyDatabase(ctx, o.DatabaseURL); err != nil {
		return res, fmt.Errorf("restore: %w", err)
	}
	if _, err := os.Stat(filepath.Join(o.DataDir, webLinksFile)); err == nil {
		return res, fmt.Errorf("restore: %s already holds %s; restore into an empty directory, or move it aside first", o.DataDir, webLinksFile)
	}
	// One transaction: a dump that fails half-way leaves the database empty.
	if err := runPG(ctx, pgRestore, o.DatabaseURL, "--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", dump); err != nil {
		return res, fmt.Errorf("restore: %w", err)
	}
	res.Files = append(res.Files, dumpFile)
	if err := os.MkdirAll(o.DataDir, 0o750); err != nil {
		return res, fmt.Errorf("restore: %w", err)
	}
	copied, err := copyIfExists(filepath.Join(from, webLinksFile), filepath.Join(o.DataDir, webLinksFile))
	if err != nil {
		return res, fmt.Errorf("restore %s: %w", webLinksFile, err)
	}
	if copied {
		res.Files = append(res.Files, webLinksFile)
	}
	if res, err = restoreKey(o, from, res); err != nil {
		return res, err
	}
	return rebuildRestored(ctx, o, res)
}

// emptyDatabase refuses a database that holds any table outside
// PostgreSQL's own schemas: a restore never mixes with a store.
func emptyDatabase(ctx context.Context, databaseURL string) error {
	conn, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	var tables int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_catalog.pg_tables
		WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`).Scan(&tables); err != nil {
		return err
	}
	if tables > 0 {
		return fmt.Errorf("the database of DATABASE_URL already holds a store (%d tables); restore into a new, empty database (createdb), or drop this one first", tables)
	}
	return nil
}

func secretKeyPath(o Options) string {
	if o.SecretKeyFile != "" {
		return o.SecretKeyFile
	}
	return filepath.Join(o.DataDir, secretFile)
}

// emptyDir creates dir, or accepts it if it exists and is empty: a backup
// never mixes with or overwrites an older one.
func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return os.MkdirAll(dir, 0o700)
	}
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("%s is not empty; back up into a new directory", dir)
	}
	return nil
}

// openExisting opens an SQLite file that must exist (mode=rw never
// creates one) and waits on a busy writer rather than failing.
func openExisting(path string) (*sql.DB, error) {
	dsn := "file:" + strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(path) +
		"?mode=rw&_pragma=busy_timeout(10000)"
	return sql.Open("sqlite", dsn)
}

func vacuumInto(ctx context.Context, from, to string) error {
	db, err := openExisting(from)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.ExecContext(ctx, "VACUUM INTO '"+strings.ReplaceAll(to, "'", "''")+"'")
	if err != nil {
		return err
	}
	// The copy holds every row of the store, personal data included.
	return os.Chmod(to, 0o600)
}

func integrityCheck(ctx context.Context, path string) error {
	db, err := openExisting(path)
	if err != nil {
		return err
	}
	defer db.Close()
	var verdict string
	if err := db.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&verdict); err != nil {
		return err
	}
	if verdict != "ok" {
		return fmt.Errorf("integrity check: %s", verdict)
	}
	return nil
}

// copyIfExists copies a file readable only by its owner, and reports
// false if there was none to copy.
func copyIfExists(from, to string) (bool, error) {
	in, err := os.Open(from)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return false, err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return false, err
	}
	return true, out.Close()
}
