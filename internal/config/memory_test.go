package config

import (
	"strings"
	"testing"
)

func TestJobMemory(t *testing.T) {
	tests := []struct {
		value string
		want  int64
		fail  bool
	}{
		{"512MiB", 512 << 20, false},
		{"2GiB", 2 << 30, false},
		{"2g", 2 << 30, false},
		{"1.5G", 3 << 29, false},
		{"3000000000", 3000000000, false},
		{"100MB", 0, true}, // under MinJobMemory
		{"lots", 0, true},
		{"-1G", 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.value, func(t *testing.T) {
			c, err := FromEnv(env(map[string]string{"KILN_JOB_MEMORY": tc.value}))
			if tc.fail {
				if err == nil || !strings.HasPrefix(err.Error(), "KILN_JOB_MEMORY: ") {
					t.Fatalf("error %v, want one naming KILN_JOB_MEMORY", err)
				}
				return
			}
			if err != nil || c.JobMemory != tc.want || c.JobMemoryShared {
				t.Fatalf("JobMemory %d shared %v (%v), want %d, not shared", c.JobMemory, c.JobMemoryShared, err, tc.want)
			}
		})
	}
	// The default shares the machine among the jobs run at once.
	one, err := FromEnv(env(map[string]string{"KILN_WORKER_CONCURRENCY": "1"}))
	if err != nil {
		t.Fatal(err)
	}
	four, err := FromEnv(env(map[string]string{"KILN_WORKER_CONCURRENCY": "4"}))
	if err != nil {
		t.Fatal(err)
	}
	if !one.JobMemoryShared {
		t.Errorf("the default is not shared among the machine's workers")
	}
	if total := machineMemory(); total > 0 && (one.JobMemory >= total || one.JobMemory < total/2) {
		t.Fatalf("default for one job: %d of %d bytes", one.JobMemory, total)
	}
	if four.JobMemory >= one.JobMemory && four.JobMemory > MinJobMemory {
		t.Fatalf("four jobs get %d bytes each, one gets %d", four.JobMemory, one.JobMemory)
	}
}
