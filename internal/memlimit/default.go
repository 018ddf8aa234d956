package memlimit

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// The default memory limit. A run that outgrows the machine must stop with
// exit 3, "incomplete", never be killed by the kernel's OOM killer halfway
// through, with nothing said. So when neither --max-memory nor GOMEMLIMIT
// gives a limit, mc check (and mc sweep, mc-beam check) keeps to 7/8 of the memory available
// when it starts: the least of MemAvailable (/proc/meminfo) and, for every
// memory cgroup (v1 or v2) the process is in and each of its ancestors, the
// cgroup's limit less what it uses beyond reclaimable file pages. The rest
// is the margin for what the limit does not count (the binary, the kernel's
// page tables, other processes starting meanwhile) and for the overshoot of
// one round between two checks (checker/memory.go).

// The share of the available memory kept to by default, as the
// fraction defaultLimitNum/defaultLimitDen.
const (
	defaultLimitNum = 7
	defaultLimitDen = 8
)

// Default is the limit mc check, mc sweep and mc-beam check keep to when
// neither --max-memory nor GOMEMLIMIT gives one, or 0 when the available
// memory cannot be read (not Linux): then there is no limit.
func Default() int64 {
	if Environment() > 0 {
		return 0 // GOMEMLIMIT is set: the checker keeps to it
	}
	avail, err := availableMemory("/")
	if err != nil {
		return 0
	}
	return avail / defaultLimitDen * defaultLimitNum
}

// availableMemory is the memory the process may still take, read from the
// proc and cgroup files under root ("/" but in tests).
func availableMemory(root string) (int64, error) {
	avail, err := memAvailable(filepath.Join(root, "proc/meminfo"))
	if err != nil {
		return 0, err
	}
	for _, dir := range memoryCgroups(root) {
		if room, ok := cgroupRoom(dir); ok {
			avail = min(avail, room)
		}
	}
	return avail, nil
}

// memAvailable reads MemAvailable from a meminfo file.
func memAvailable(file string) (int64, error) {
	f, err := os.Open(file)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 3 && fields[0] == "MemAvailable:" && fields[2] == "kB" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				return 0, fmt.Errorf("%s: %v", file, err)
			}
			return kb * 1024, nil
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("%s has no MemAvailable", file)
}

// memoryCgroups lists the directories of the memory cgroups the process is
// in, with their ancestors up to the hierarchy's root: for cgroup v2 under
// sys/fs/cgroup, for v1 under sys/fs/cgroup/memory (where systemd and
// container runtimes mount them). None when the files cannot be read.
func memoryCgroups(root string) []string {
	data, err := os.ReadFile(filepath.Join(root, "proc/self/cgroup"))
	if err != nil {
		return nil
	}
	var dirs []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		var mount string
		switch {
		case parts[0] == "0" && parts[1] == "":
			mount = "sys/fs/cgroup"
		case hasController(parts[1], "memory"):
			mount = "sys/fs/cgroup/memory"
		default:
			continue
		}
		for p := path.Clean("/" + parts[2]); ; p = path.Dir(p) {
			dirs = append(dirs, filepath.Join(root, mount, p))
			if p == "/" {
				break
			}
		}
	}
	return dirs
}

func hasController(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// cgroupRoom is what the memory cgroup in dir can still take: its limit less
// its usage, not counting inactive file pages, which the kernel reclaims
// before it kills anything. It reports false when dir sets no limit.
func cgroupRoom(dir string) (int64, bool) {
	limit, ok := readBytes(filepath.Join(dir, "memory.max")) // v2
	usageFile, inactive := "memory.current", "inactive_file"
	if !ok {
		limit, ok = readBytes(filepath.Join(dir, "memory.limit_in_bytes")) // v1
		usageFile, inactive = "memory.usage_in_bytes", "total_inactive_file"
	}
	// v1 writes "no limit" as the largest multiple of the page size.
	if !ok || limit >= math.MaxInt64/2 {
		return 0, false
	}
	usage, _ := readBytes(filepath.Join(dir, usageFile))
	usage -= min(usage, statField(filepath.Join(dir, "memory.stat"), inactive))
	return max(limit-usage, 0), true
}

// readBytes reads a file holding one number of bytes; "max" (v2's "no
// limit") and unreadable files report false.
func readBytes(file string) (int64, bool) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	return n, err == nil
}

// statField reads the field name of a memory.stat file, 0 if absent.
func statField(file, name string) int64 {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}
