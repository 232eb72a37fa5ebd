package config

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// MinJobMemory is the smallest KILN_JOB_MEMORY: below it even an avatar
// build would be refused.
const MinJobMemory = 256 << 20

// bytes reads a size in bytes with an optional unit: 512MiB, 2GiB, 1.5G,
// 3000000000. K, M, G and T are powers of 1024 with or without the i
// and the B, as memory is sized.
func (r *reader) bytes(name string, def, lo int64) int64 {
	v := r.str(name, "")
	if v == "" {
		return def
	}
	n, ok := parseBytes(v)
	if !ok || n < lo {
		r.fail(name, "must be a size of at least %dMiB like 512MiB or 2GiB, got %q", lo>>20, v)
	}
	return n
}

func parseBytes(v string) (int64, bool) {
	s := strings.ToUpper(strings.TrimSpace(v))
	s = strings.TrimSuffix(strings.TrimSuffix(s, "B"), "I")
	mult := int64(1)
	if s != "" {
		if i := strings.IndexByte("KMGT", s[len(s)-1]); i >= 0 {
			mult = int64(1) << (10 * (i + 1))
			s = s[:len(s)-1]
		}
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || f <= 0 || f*float64(mult) > 1<<50 {
		return 0, false
	}
	return int64(f * float64(mult)), true
}

// defaultJobMemory shares three quarters of the memory the worker may use
// (its cgroup's limit in a container, else the machine's) among the jobs
// it runs at once, leaving the rest to the process itself, the page cache
// and Blender. Unknown memory gives 2 GiB.
func defaultJobMemory(concurrency int) int64 {
	total := machineMemory()
	if total <= 0 {
		return 2 << 30
	}
	return max(MinJobMemory, total/4*3/int64(max(1, concurrency)))
}

// machineMemory is the cgroup v2 memory limit when there is one, else
// MemTotal; 0 when neither can be read.
func machineMemory() int64 {
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 {
			return min(n, memTotal())
		}
	}
	return memTotal()
}

func memTotal() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, _ := strconv.ParseInt(fields[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}
