package main

import (
	"log"
	"os"

	"github.com/kilnhq/kiln/internal/config"
	"github.com/kilnhq/kiln/worker"
)

// configure gives the worker of a child the memory budget kiln worker
// would have: KILN_JOB_MEMORY, or its default for this machine.
func configure(w *worker.Worker) {
	cfg, err := config.FromEnv(os.Getenv)
	if err != nil {
		log.Fatal(err)
	}
	w.JobMemory = cfg.JobMemory
}
