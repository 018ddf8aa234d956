//go:build unix

package runstore

import "syscall"

// fsFree is the space available to this process on dir's file system.
func fsFree(dir string) (uint64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return uint64(st.Bavail) * uint64(st.Bsize), nil
}

// allocated is the space the file name takes on disk: its blocks of 512
// bytes, which a sparse file has fewer of than its length needs.
func allocated(name string) (int64, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(name, &st); err != nil {
		return 0, err
	}
	return int64(st.Blocks) * 512, nil
}
