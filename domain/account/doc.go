// Package account is the user-account domain: registration, e-mail
// confirmation, passwords, settings, permission groups and the staff
// actions taken on accounts.
//
// Each user has one event stream (see Stream). The package is pure: it
// decides which events a command produces and rebuilds state from events,
// and leaves storage, HTTP and mail to its callers. Uniqueness of usernames
// and e-mail addresses spans streams, so the caller enforces it (UsernameKey
// and EmailKey give the normalised keys to index).
package account
