package lowpriority

import "syscall"

func supported() error { return nil }

// lower sets the calling thread's nice value: on Linux, unlike POSIX,
// setpriority with a thread ID changes that thread alone.
func lower(nice int) error {
	return syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), nice)
}
