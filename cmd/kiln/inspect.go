package main

import (
	"fmt"
	"io"
)

// inspect prints the stats of a model file, with no server.
func inspect(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "kiln inspect: usage: kiln inspect FILE")
		return 2
	}
	s, _, err := readModel(args[0])
	if err != nil {
		return failed(stderr, "inspect", args[0], err)
	}
	printJSON(stdout, s.Stats())
	return 0
}
