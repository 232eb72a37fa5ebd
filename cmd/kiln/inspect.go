package main

import (
	"fmt"
	"io"
	"os"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets"
)

// inspect prints the stats of a model file, with no server.
func inspect(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "kiln inspect: usage: kiln inspect FILE")
		return 2
	}
	f, err := os.Open(args[0])
	if err != nil {
		fmt.Fprintf(stderr, "kiln inspect: %v\n", err)
		return 1
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, assets.MaxModelBytes+1))
	if err != nil {
		fmt.Fprintf(stderr, "kiln inspect: %v\n", err)
		return 1
	}
	stats, err := assets.Inspect(data)
	if err != nil {
		_, msg := kiln.CodeOf(err)
		fmt.Fprintf(stderr, "kiln inspect: %s: %s\n", args[0], msg)
		return 1
	}
	printJSON(stdout, stats)
	return 0
}
