//go:build !unix

package avatar

import "time"

// cpuTime is unknown here: BenchmarkBuild reports wall time alone.
func cpuTime() time.Duration { return 0 }
