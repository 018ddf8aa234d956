package memlimit

import (
	"os"
	"path/filepath"
	"testing"
)

// The default memory limit is the least room left by MemAvailable and the
// memory cgroups (v2 and v1) the process and their ancestors are in, with
// reclaimable file pages counted as room.
func TestAvailableMemoryReadsMeminfoAndCgroups(t *testing.T) {
	root := t.TempDir()
	write := func(file, data string) {
		path := filepath.Join(root, file)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("proc/meminfo", "MemTotal:       32000000 kB\nMemFree:         1000000 kB\nMemAvailable:    8000000 kB\n")
	write("proc/self/cgroup", "0::/\n")
	if got, err := availableMemory(root); err != nil || got != 8000000*1024 {
		t.Fatalf("meminfo alone: %d, %v", got, err)
	}
	// cgroup v2: the job's own limit is loose, its parent's is tight.
	write("proc/self/cgroup", "0::/user/job\n")
	write("sys/fs/cgroup/user/job/memory.max", "max\n")
	write("sys/fs/cgroup/user/memory.max", "3000000000\n")
	write("sys/fs/cgroup/user/memory.current", "1200000000\n")
	write("sys/fs/cgroup/user/memory.stat", "anon 900000000\ninactive_file 200000000\n")
	if got, err := availableMemory(root); err != nil || got != 3000000000-1000000000 {
		t.Fatalf("cgroup v2: %d, %v", got, err)
	}
	// cgroup v1, with "no limit" written as a huge number at the root.
	write("proc/self/cgroup", "5:cpu,cpuacct:/x\n4:memory:/job\n")
	write("sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n")
	write("sys/fs/cgroup/memory/job/memory.limit_in_bytes", "2000000000\n")
	write("sys/fs/cgroup/memory/job/memory.usage_in_bytes", "500000000\n")
	write("sys/fs/cgroup/memory/job/memory.stat", "cache 100\ntotal_inactive_file 100000000\n")
	if got, err := availableMemory(root); err != nil || got != 2000000000-400000000 {
		t.Fatalf("cgroup v1: %d, %v", got, err)
	}
	if _, err := availableMemory(filepath.Join(root, "nowhere")); err == nil {
		t.Fatal("no meminfo: no error")
	}
}
