//go:build windows

package runstore

import (
	"os"

	"golang.org/x/sys/windows"
)

// fsFree is the space available to this process on dir's file system.
func fsFree(dir string) (uint64, error) {
	name, err := windows.UTF16PtrFromString(dir)
	if err != nil {
		return 0, err
	}
	var free uint64
	if err := windows.GetDiskFreeSpaceEx(name, &free, nil, nil); err != nil {
		return 0, err
	}
	return free, nil
}

// allocated is the space the file name takes on disk, counted as its
// length: at most what a sparse file takes, so the room checkRoom asks for
// errs on the safe side.
func allocated(name string) (int64, error) {
	st, err := os.Stat(name)
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}
